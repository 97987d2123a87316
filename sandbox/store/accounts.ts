// Users, projects and who is assigned to which: the data behind Auth and Project routes and the
// operator commands.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { sql } from '../db/statements.ts';
import { isoSeconds, nowSeconds } from '../validate.ts';

export interface UserRow {
  user_id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

export interface UserRecord {
  userId: string;
  email: string;
  createdAt: string;
  projectIds: string[];
}

export interface ProjectRecord {
  projectId: string;
  name: string;
  createdAt: string;
  assignedTo: string[];
}

/** What GET /Project/GetProjects returns per project. */
export interface ProjectSummary {
  projectId: string;
  name: string;
  createdAt: string;
}

interface ProjectRow {
  project_id: string;
  name: string;
  created_at: number;
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return sql(db, 'SELECT * FROM users WHERE email = ?').get(email.trim()) as UserRow | undefined;
}

export function findUserById(db: Db, userId: string): UserRow | undefined {
  return sql(db, 'SELECT * FROM users WHERE user_id = ?').get(userId) as UserRow | undefined;
}

export function insertUser(db: Db, email: string, passwordHash: string): UserRow {
  const row: UserRow = { user_id: randomUUID(), email: email.trim(), password_hash: passwordHash, created_at: nowSeconds() };
  sql(db, 'INSERT INTO users (user_id, email, password_hash, created_at) VALUES (?, ?, ?, ?)').run(
    row.user_id, row.email, row.password_hash, row.created_at,
  );
  return row;
}

export function insertProject(db: Db, name: string): string {
  const projectId = randomUUID();
  sql(db, 'INSERT INTO projects (project_id, name, created_at) VALUES (?, ?, ?)').run(projectId, name, nowSeconds());
  return projectId;
}

export function findProject(db: Db, projectId: string): ProjectSummary | undefined {
  const row = sql(db, 'SELECT * FROM projects WHERE project_id = ?').get(projectId.toLowerCase()) as ProjectRow | undefined;
  return row && summary(row);
}

/** Returns false when the user already had the project. */
export function addMember(db: Db, projectId: string, userId: string): boolean {
  const result = sql(db, 'INSERT OR IGNORE INTO project_members (project_id, user_id, assigned_at) VALUES (?, ?, ?)')
    .run(projectId, userId, nowSeconds());
  return result.changes > 0;
}

/** Returns false when the user did not have the project. */
export function removeMember(db: Db, projectId: string, userId: string): boolean {
  return sql(db, 'DELETE FROM project_members WHERE project_id = ? AND user_id = ?').run(projectId, userId).changes > 0;
}

export function projectsOfUser(db: Db, userId: string): ProjectSummary[] {
  const rows = sql(
      db,
      `SELECT p.* FROM projects p JOIN project_members m ON m.project_id = p.project_id
       WHERE m.user_id = ? ORDER BY p.created_at, p.rowid`,
    )
    .all(userId) as ProjectRow[];
  return rows.map(summary);
}

export function hasProjectAccess(db: Db, userId: string, projectId: string): boolean {
  return sql(db, 'SELECT 1 FROM project_members WHERE user_id = ? AND project_id = ?')
    .get(userId, projectId.toLowerCase()) !== undefined;
}

export function listUsers(db: Db): UserRecord[] {
  const users = sql(db, 'SELECT * FROM users ORDER BY created_at, rowid').all() as UserRow[];
  const members = sql(db, 'SELECT project_id FROM project_members WHERE user_id = ? ORDER BY assigned_at');
  return users.map((u) => ({
    userId: u.user_id,
    email: u.email,
    createdAt: isoSeconds(u.created_at),
    projectIds: (members.all(u.user_id) as { project_id: string }[]).map((m) => m.project_id),
  }));
}

export function listProjects(db: Db): ProjectRecord[] {
  const projects = sql(db, 'SELECT * FROM projects ORDER BY created_at, rowid').all() as ProjectRow[];
  return projects.map((p) => projectRecord(db, p.project_id)!);
}

export function projectRecord(db: Db, projectId: string): ProjectRecord | undefined {
  const project = findProject(db, projectId);
  if (!project) return undefined;
  const emails = sql(
      db,
      `SELECT u.email FROM users u JOIN project_members m ON m.user_id = u.user_id
       WHERE m.project_id = ? ORDER BY m.assigned_at, u.email`,
    )
    .all(project.projectId) as { email: string }[];
  return { ...project, assignedTo: emails.map((e) => e.email) };
}

function summary(row: ProjectRow): ProjectSummary {
  return { projectId: row.project_id, name: row.name, createdAt: isoSeconds(row.created_at) };
}
