// Settings → Team as it crosses the contract: where drafts live (this computer, or a team's PostgreSQL), the
// connection a user enters and its test, and what moving local work there copied. A password crosses only
// inward, in what the user typed; nothing going back to the page holds one.
import { z } from 'zod';
import { connectionProblems, DEFAULT_POSTGRES_PORT, MAX_AUTHORITY_CHARS, type TeamConnectionFields } from '../../../common/team-connection.ts';

/** The connection's fields, checked with the same words the form shows as the user types. */
export const TeamConnection = z
  .object({
    host: z.string().trim().max(300),
    port: z.number().int().default(DEFAULT_POSTGRES_PORT),
    database: z.string().trim().max(300),
    user: z.string().trim().max(300),
    tls: z.boolean().default(false),
    /** PEM text; saved choices from before it existed have none */
    authority: z.string().max(MAX_AUTHORITY_CHARS).nullable().default(null),
  })
  .superRefine((fields: TeamConnectionFields, context) => {
    for (const [field, message] of Object.entries(connectionProblems(fields))) context.addIssue({ code: 'custom', path: [field], message });
  });
export type TeamConnection = z.infer<typeof TeamConnection>;

/** What the form sends: the fields and, when the user typed one, a password (empty: the one saved for this server). */
export const TeamConnectionInput = z.object({
  connection: TeamConnection,
  password: z.string().max(1024).optional(),
});
export type TeamConnectionInput = z.infer<typeof TeamConnectionInput>;

export const StoreChoiceInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('team') }).extend(TeamConnectionInput.shape),
]);
export type StoreChoiceInput = z.infer<typeof StoreChoiceInput>;

/** Why a connection failed, for the words and the field the form points at. */
export const CONNECTION_FAILURES = ['invalid-address', 'host-not-found', 'unreachable', 'timeout', 'password-needed', 'wrong-password', 'not-allowed', 'no-database', 'no-permission', 'tls', 'newer-store', 'other'] as const;

export const ConnectionTest = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    where: z.string(),
    /** "PostgreSQL 15.8" */
    server: z.string(),
    database: z.string(),
    user: z.string(),
    /** PrintDesk's tables are there already (with how many orders), or it sets them up at first use */
    store: z.object({ kind: z.enum(['printdesk', 'empty']), orders: z.number().int().nonnegative() }),
  }),
  z.object({ ok: z.literal(false), where: z.string(), reason: z.enum(CONNECTION_FAILURES), message: z.string() }),
]);
export type ConnectionTest = z.infer<typeof ConnectionTest>;

/** The connection saved in Settings, as the form shows it again: never its password, only whether one is kept. */
export const SavedTeamConnection = z.object({
  connection: TeamConnection,
  passwordSaved: z.boolean(),
});

export const TeamState = z.object({
  /** where drafts live now, and what decided it */
  current: z.object({
    kind: z.enum(['local', 'team']),
    where: z.string().nullable(),
    source: z.enum(['default', 'settings', 'environment']),
  }),
  /** the team connection last entered in Settings (kept while this computer's store is used) */
  saved: SavedTeamConnection.nullable(),
  /** a saved team store that could not be opened when PrintDesk started: it runs on this computer's store meanwhile */
  problem: z.string().nullable(),
  /** whether a password is kept encrypted across restarts, and why not */
  passwordStorage: z.object({ persistent: z.boolean(), reason: z.string().nullable() }),
  /** the signed-in account's orders waiting in this computer's own Outbox (not held): sent from here only */
  waitingHere: z.number().int().nonnegative().optional(),
});
export type TeamState = z.infer<typeof TeamState>;

const Counts = z.object({
  orders: z.number().int().nonnegative(),
  /** steps of the orders' histories */
  history: z.number().int().nonnegative(),
  batches: z.number().int().nonnegative(),
  /** the rows of those batches (with their fixes, problems and report) */
  batchRows: z.number().int().nonnegative(),
  addresses: z.number().int().nonnegative(),
  skus: z.number().int().nonnegative(),
  layouts: z.number().int().nonnegative(),
});
export type MoveCounts = z.infer<typeof Counts>;

export const MoveReport = z.object({
  where: z.string(),
  copied: Counts,
  /**
   * there already (a move before, or the same order from another workstation): left as the team has it. A
   * history and a batch's rows go with what they belong to, and are not counted again here.
   */
  skipped: Counts,
  /** orders being sent from this computer as the move ran: moved by a later move, once answered */
  onTheirWay: z.number().int().nonnegative(),
  /** orders waiting in this computer's outbox, now held here: the team's outbox sends them, once */
  heldHere: z.number().int().nonnegative(),
});
export type MoveReport = z.infer<typeof MoveReport>;
