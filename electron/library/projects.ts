import type { Project, ProjectSelection } from '../contract.ts';
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import type { Preferences } from '../storage/preferences.ts';

export interface ProjectsDeps {
  client: () => ApiClient;
  prefs: Preferences;
  /** e-mail of the signed-in user; throws NOT_SIGNED_IN otherwise */
  signedInEmail: () => string;
}

export function createProjects(deps: ProjectsDeps) {
  const { client, prefs, signedInEmail } = deps;
  let cached: Project[] | null = null;

  async function list(): Promise<Project[]> {
    signedInEmail();
    cached = await client().getProjects();
    return cached;
  }

  /** Checks access with the service before remembering the choice. */
  async function select(projectId: string): Promise<ProjectSelection> {
    const email = signedInEmail();
    const api = client();
    const hasAccess = await api.hasAccessToProject(projectId);
    if (!hasAccess) {
      throw new HostError('NO_PERMISSION', 'You no longer have access to this project. Ask the service operator to assign it to your account.');
    }
    prefs.setSelectedProject(api.baseUrl, email, projectId);
    const project = (cached ?? (await list())).find((p) => p.projectId === projectId) ?? null;
    return { project, hasAccess };
  }

  /** The remembered project, re-checked; a project the user lost access to is forgotten. */
  async function current(): Promise<ProjectSelection> {
    const email = signedInEmail();
    const api = client();
    const projectId = prefs.selectedProject(api.baseUrl, email);
    if (!projectId) return { project: null, hasAccess: false };
    const [projects, hasAccess] = await Promise.all([list(), api.hasAccessToProject(projectId)]);
    const project = projects.find((p) => p.projectId === projectId) ?? null;
    if (!hasAccess || !project) {
      prefs.setSelectedProject(api.baseUrl, email, null);
      return { project: null, hasAccess: false };
    }
    return { project, hasAccess };
  }

  return { list, select, current, forget: () => void (cached = null) };
}
