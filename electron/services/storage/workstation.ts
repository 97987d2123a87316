// This computer as a team's store knows it: an id made once per data folder, so the app and `printdesk batch`
// on it are one workstation (their processes told apart by pid), and its name for people to read in an
// order's history.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from './database.ts';

export interface Workstation {
  id: string;
  name: string;
}

/** Kept in this computer's database, never in a shared one: a copy of the data folder is another workstation only once it says so. */
export function workstationOf(db: Db, name: string = hostname()): Workstation {
  db.exec('CREATE TABLE IF NOT EXISTS workstation (id TEXT NOT NULL)');
  const row = db.prepare<[], { id: string }>('SELECT id FROM workstation LIMIT 1').get();
  if (row) return { id: row.id, name };
  const id = randomUUID();
  db.prepare('INSERT INTO workstation (id) VALUES (?)').run(id);
  return { id, name };
}

/** Who writes, for an order's history: "ada@shop.example on bench-2" while someone is signed in, else nobody. */
export function identityOf(workstation: Workstation, session: () => { status: string; email: string | null }) {
  return {
    workstation: workstation.id,
    name: workstation.name,
    actor: () => {
      const state = session();
      return state.status === 'signed-in' ? `${state.email} on ${workstation.name}` : null;
    },
  };
}
