// The order form's contents as they are typed, one per account, so that closing the window, reloading the
// page or a crash loses at most the last moments of typing: the next start makes them a draft. Leaving
// the form normally saves a draft instead, which clears this (see Orders.save).
import { migrate, type Db } from '../storage/database.ts';
import type { DraftFields } from '../../contract/schemas/orders.ts';

const MIGRATIONS = [
  (db: Db) =>
    db.exec(`
      CREATE TABLE unsaved_forms (
        account TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        draft_id TEXT,
        fields TEXT NOT NULL,
        saved_at TEXT NOT NULL
      );
    `),
];

export interface UnsavedForm {
  projectId: string;
  /** the draft the form was editing, or null for a new order */
  draftId: string | null;
  fields: DraftFields;
}

export type UnsavedForms = ReturnType<typeof createUnsavedForms>;

export function createUnsavedForms(db: Db, now: () => Date = () => new Date()) {
  migrate(db, 'unsaved-forms', MIGRATIONS);
  const put = db.prepare<[string, string, string | null, string, string]>(
    `INSERT INTO unsaved_forms (account, project_id, draft_id, fields, saved_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account) DO UPDATE SET project_id = excluded.project_id, draft_id = excluded.draft_id, fields = excluded.fields, saved_at = excluded.saved_at`,
  );
  const read = db.prepare<[string], { project_id: string; draft_id: string | null; fields: string }>('SELECT project_id, draft_id, fields FROM unsaved_forms WHERE account = ?');
  const drop = db.prepare<[string]>('DELETE FROM unsaved_forms WHERE account = ?');

  return {
    keep(account: string, form: UnsavedForm): void {
      put.run(account, form.projectId, form.draftId, JSON.stringify(form.fields), now().toISOString());
    },
    forget(account: string): void {
      drop.run(account);
    },
    /** The account's unsaved form, removed as it is read: it is given back once. */
    take(account: string): UnsavedForm | null {
      return db.transaction(() => {
        const row = read.get(account);
        if (!row) return null;
        drop.run(account);
        return { projectId: row.project_id, draftId: row.draft_id, fields: JSON.parse(row.fields) as DraftFields };
      })();
    },
  };
}
