// THE list of channels between the renderer and the host. Main's ipcMain handlers, the preload,
// the browser-mode bridge and the renderer's types are all derived from this file; a channel that
// is not declared here does not exist.
import { z } from 'zod';
import { Draft, DraftFields, Guid, Quote, QuoteRequest, Recipient } from './schemas/orders.ts';

export const ERROR_CODES = [
  // the service's own error types
  'AUTHENTICATION',
  'NO_PERMISSION',
  'INCORRECT_PARAMETERS',
  'INTERNAL_ERROR',
  'RATE_LIMITED',
  // the client's
  'OFFLINE',
  'TIMEOUT',
  'NOT_SIGNED_IN',
  'NO_PROJECT',
  'INVALID_INPUT',
  'INVALID_RESPONSE',
  'FILE_UNREADABLE',
  'FILE_INVALID',
  'CANCELLED',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

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

const Nothing = z.undefined().or(z.null()).optional();

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
  mode: z.enum(['electron', 'browser']),
  platform: z.string(),
  service: z.object({
    setting: ServiceSetting,
    baseUrl: z.string().nullable(),
    sandboxRunning: z.boolean(),
  }),
  demoAccount: z.object({ email: z.string(), password: z.string() }).nullable(),
  vault: VaultState,
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

export const Connectivity = z.object({ online: z.boolean() });
const DraftId = z.object({ id: z.string().min(1).max(64) });

interface ChannelDef<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
}
const channel = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): ChannelDef<I, O> => ({ input, output });

export const contract = {
  app: {
    info: channel(Nothing, AppInfo),
    dismissVaultNotice: channel(Nothing, VaultState),
  },
  settings: {
    setService: channel(ServiceSetting, AppInfo.shape.service),
  },
  session: {
    get: channel(Nothing, SessionState),
    signIn: channel(z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) }), SessionState),
    signOut: channel(Nothing, SessionState),
  },
  projects: {
    list: channel(Nothing, z.array(Project)),
    current: channel(Nothing, ProjectSelection),
    select: channel(z.object({ projectId: Guid }), ProjectSelection),
  },
  connectivity: {
    get: channel(Nothing, Connectivity),
  },
  quotes: {
    get: channel(QuoteRequest, Quote),
  },
  drafts: {
    list: channel(z.object({ projectId: Guid }), z.array(Draft)),
    get: channel(DraftId, Draft),
    save: channel(z.object({ projectId: Guid, id: z.string().max(64).optional(), fields: DraftFields }), Draft),
    duplicate: channel(DraftId, Draft),
    delete: channel(DraftId, z.null()),
    addressBook: channel(Nothing, z.array(Recipient)),
  },
  orders: {
    refresh: channel(z.object({ projectId: Guid }), z.array(Draft)),
    cancel: channel(DraftId, Draft),
  },
  outbox: {
    place: channel(DraftId, Draft),
    acceptChanges: channel(DraftId, Draft),
    unqueue: channel(DraftId, Draft),
  },
} as const;

/** Events pushed from the host to the renderer. */
export const events = {
  'session:changed': SessionState,
  'connectivity:changed': Connectivity,
  'drafts:changed': Draft,
  'orders:placed': Draft,
} as const;

export type Contract = typeof contract;
export type Namespace = keyof Contract;
export type ChannelName = { [N in Namespace]: `${N}:${keyof Contract[N] & string}` }[Namespace];
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

type Def<C extends ChannelName> = C extends `${infer N extends Namespace}:${infer M}`
  ? M extends keyof Contract[N]
    ? Contract[N][M]
    : never
  : never;
export type ChannelInput<C extends ChannelName> = Def<C> extends ChannelDef<infer I, z.ZodType> ? z.input<I> : never;
export type ChannelOutput<C extends ChannelName> = Def<C> extends ChannelDef<z.ZodType, infer O> ? z.output<O> : never;
/** What a handler receives: the input after the contract's parsing. */
export type ChannelParsedInput<C extends ChannelName> = Def<C> extends ChannelDef<infer I, z.ZodType> ? z.output<I> : never;

/** Every channel name, in declaration order: the list main registers and the preload exposes. */
export const channelNames: ChannelName[] = Object.entries(contract).flatMap(([ns, defs]) =>
  Object.keys(defs).map((m) => `${ns}:${m}` as ChannelName),
);
export const eventNames = Object.keys(events) as EventName[];

export function channelDef(name: string): ChannelDef<z.ZodType, z.ZodType> | undefined {
  const [ns, method] = name.split(':');
  if (!Object.hasOwn(contract, ns)) return undefined;
  const defs = (contract as Record<string, Record<string, ChannelDef<z.ZodType, z.ZodType>>>)[ns];
  return Object.hasOwn(defs, method) ? defs[method] : undefined;
}
