// The app's own state as the renderer sees it (session, service, connectivity, the errors every channel may
// answer with): the schemas of channels.ts that belong to no one service.
import { z } from 'zod';
import { ErrorCode } from './errors.ts';

export const AppErrorSchema = z.object({
  code: ErrorCode,
  message: z.string(),
  retryable: z.boolean(),
  /** seconds until a retry may succeed (429 Retry-After) */
  retryAfterSeconds: z.number().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AppError = z.infer<typeof AppErrorSchema>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ServiceSetting = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sandbox') }),
  z.object({ kind: z.literal('custom'), baseUrl: z.string().max(2048) }),
]);
export type ServiceSetting = z.infer<typeof ServiceSetting>;

export const SessionState = z.object({
  status: z.enum(['signed-out', 'signed-in']),
  email: z.string().nullable(),
  /** why the last session ended, when it ended on its own (refresh failed) */
  endedReason: z.string().nullable(),
});
export type SessionState = z.infer<typeof SessionState>;

export const VaultState = z.object({
  /** true when the refresh token is encrypted on disk and survives a restart */
  persistent: z.boolean(),
  /** why it is not, for the one-time notice */
  reason: z.string().nullable(),
  noticeDismissed: z.boolean(),
});

export const AppInfo = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser', 'cli']),
  platform: z.string(),
  service: z.object({
    setting: ServiceSetting,
    baseUrl: z.string().nullable(),
    sandboxRunning: z.boolean(),
  }),
  demoAccount: z.object({ email: z.string(), password: z.string() }).nullable(),
  vault: VaultState,
  /** where drafts and the outbox live: this computer, or a team's store (its host, port and database; never its password) */
  store: z
    .object({
      kind: z.enum(['local', 'team']),
      where: z.string().nullable(),
      /** the team store saved in Settings → Team could not be opened at start: why (this computer's is used meanwhile) */
      problem: z.string().nullable().optional(),
    })
    .optional(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const Project = z.object({
  projectId: z.string(),
  name: z.string(),
  createdAt: z.string().nullable(),
});
export type Project = z.infer<typeof Project>;

export const ProjectSelection = z.object({
  project: Project.nullable(),
  hasAccess: z.boolean(),
});
export type ProjectSelection = z.infer<typeof ProjectSelection>;

/** Why the service is not being reached: it does not answer, the embedded sandbox stopped, or the user works offline. */
export const OfflineReason = z.enum(['unreachable', 'sandbox-stopped', 'working-offline']);
export type OfflineReason = z.infer<typeof OfflineReason>;
export const Connectivity = z.object({ online: z.boolean(), reason: OfflineReason.nullable() });
export type ConnectivityState = z.infer<typeof Connectivity>;
/** What the outbox placed since it had to wait for the service, said once it has nothing left to send. */
export const OutboxEmptied = z.object({ placed: z.number().int().min(0), needAttention: z.number().int().min(0) });
export type OutboxEmptied = z.infer<typeof OutboxEmptied>;

/** The account's orders still to be sent in every project: what signing out leaves behind. */
export const OutboxWaiting = z.object({
  orders: z.number().int().nonnegative(),
  projects: z.number().int().nonnegative(),
  /** of them, in the project asked about (the open one) */
  here: z.number().int().nonnegative(),
  /** held in a team's store, where the shop's other workstations signed in to the account may send them */
  shared: z.boolean(),
});
export type OutboxWaiting = z.infer<typeof OutboxWaiting>;
