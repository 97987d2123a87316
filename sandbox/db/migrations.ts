// Versioned schema. PRAGMA user_version holds the number of the last migration applied; each one
// runs in its own transaction together with the version bump, so a kill mid-way leaves the
// previous version intact. Append new migrations; never edit one that has shipped.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, projects, refresh tokens',
    sql: `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE users (
        user_id       TEXT PRIMARY KEY,
        email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        created_at    INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE projects (
        project_id TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE project_members (
        project_id  TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
        user_id     TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        assigned_at INTEGER NOT NULL,
        PRIMARY KEY (project_id, user_id)
      ) STRICT;
      CREATE INDEX project_members_by_user ON project_members(user_id);

      CREATE TABLE refresh_tokens (
        jti        TEXT PRIMARY KEY,
        user_id    TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        issued_at  INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT;
      CREATE INDEX refresh_tokens_by_expiry ON refresh_tokens(expires_at);
    `,
  },
  {
    version: 2,
    name: 'models and orders',
    sql: `
      -- Model files are stored content-addressed under <data>/models/<sha256>; rows point at them.
      CREATE TABLE models (
        model_id     TEXT PRIMARY KEY,
        project_id   TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
        folder_id    TEXT,
        name         TEXT NOT NULL,
        file_name    TEXT NOT NULL,
        format       TEXT NOT NULL,
        size_bytes   INTEGER NOT NULL,
        sha256       TEXT NOT NULL,
        weight_grams INTEGER NOT NULL,
        created_at   INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX models_by_project ON models(project_id);

      CREATE TABLE orders (
        order_id           TEXT PRIMARY KEY,
        user_id            TEXT NOT NULL REFERENCES users(user_id),
        project_id         TEXT NOT NULL REFERENCES projects(project_id),
        order_reference    TEXT NOT NULL,
        request_hash       TEXT NOT NULL,
        status             TEXT NOT NULL,
        shipping_method_id INTEGER NOT NULL,
        shipping_price     INTEGER NOT NULL,
        currency           TEXT NOT NULL,
        recipient          TEXT NOT NULL,
        order_content      TEXT NOT NULL,
        created_at         INTEGER NOT NULL,
        updated_at         INTEGER NOT NULL,
        UNIQUE (user_id, order_reference)
      ) STRICT;
      CREATE INDEX orders_by_project ON orders(project_id, created_at);

      CREATE TABLE order_lines (
        order_id TEXT NOT NULL REFERENCES orders(order_id) ON DELETE CASCADE,
        line_no  INTEGER NOT NULL,
        model_id TEXT NOT NULL REFERENCES models(model_id),
        quantity INTEGER NOT NULL,
        PRIMARY KEY (order_id, line_no)
      ) STRICT;

      CREATE TABLE order_events (
        order_id TEXT NOT NULL REFERENCES orders(order_id) ON DELETE CASCADE,
        status   TEXT NOT NULL,
        at       INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX order_events_by_order ON order_events(order_id, at);
    `,
  },
  {
    version: 3,
    name: 'folders, uploads, model deletion',
    sql: `
      -- name_key (trimmed, NFC, lower case) makes sibling names unique regardless of case.
      CREATE TABLE folders (
        folder_id        TEXT PRIMARY KEY,
        project_id       TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
        parent_folder_id TEXT REFERENCES folders(folder_id),
        name             TEXT NOT NULL,
        name_key         TEXT NOT NULL,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX folders_unique_sibling_name ON folders(project_id, ifnull(parent_folder_id, ''), name_key);
      CREATE INDEX folders_by_parent ON folders(parent_folder_id);

      -- A model used by an order is only marked deleted (order_lines keep their foreign key).
      ALTER TABLE models ADD COLUMN deleted_at INTEGER;
      CREATE INDEX models_by_project_sha ON models(project_id, sha256);
      CREATE INDEX models_by_folder ON models(folder_id);

      -- Resumable uploads: received_bytes is the offset the client resumes from; the bytes live
      -- in <data>/uploads/<upload_id>.part. bytes_received counts every byte taken in, re-sent ones too.
      CREATE TABLE uploads (
        upload_id       TEXT PRIMARY KEY,
        kind            TEXT NOT NULL,
        user_id         TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        project_id      TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
        folder_id       TEXT,
        name            TEXT NOT NULL,
        file_name       TEXT NOT NULL,
        size_bytes      INTEGER NOT NULL,
        declared_sha256 TEXT,
        allow_duplicate INTEGER NOT NULL,
        received_bytes  INTEGER NOT NULL,
        bytes_received  INTEGER NOT NULL,
        state           TEXT NOT NULL,
        model_id        TEXT,
        duplicate       INTEGER NOT NULL DEFAULT 0,
        error           TEXT,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX uploads_by_state ON uploads(state, expires_at);
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
