// Fault injection for reliability tests. Faults are switched at run time (in-process or through
// the admin endpoint); each targets requests whose path contains `path`, fires for `count`
// requests and/or with a `probability` drawn from a seeded generator, so a test run repeats.
import { z } from 'zod';

export const FAULT_KINDS = ['latency', 'stall', 'reset-before', 'reset-after', 'reset-mid-body', 'status-5xx', 'rate-limit'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultSpecSchema = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  /** case-insensitive substring of the request path, e.g. "/Order/CreateOrder"; absent = every /v2 path */
  path: z.string().min(1).optional(),
  /** HTTP method to match; absent = any */
  method: z.string().min(1).optional(),
  /** how many matching requests it lets through before it starts hitting (the n-th of a series); default 0 */
  skip: z.number().int().nonnegative().optional(),
  /** how many matching requests it hits before it retires; absent = unlimited */
  count: z.number().int().positive().optional(),
  /** chance that a matching request is hit (default 1) */
  probability: z.number().min(0).max(1).optional(),
  /** seed of the generator behind `probability` (default 1) */
  seed: z.number().int().optional(),
  /** latency: delay before handling; stall: delay between acting and answering */
  ms: z.number().int().nonnegative().optional(),
  /** status-5xx: the status to answer (default 503) */
  status: z.number().int().min(500).max(599).optional(),
  /** rate-limit: the Retry-After to send (default 1) */
  retryAfterSeconds: z.number().int().nonnegative().optional(),
  /** reset-mid-body: bytes of the request body the handler receives before the socket dies (default 65536) */
  afterBytes: z.number().int().nonnegative().optional(),
});

export type FaultSpec = z.infer<typeof faultSpecSchema>;

export interface ActiveFault extends FaultSpec {
  id: number;
  /** requests hit so far */
  hits: number;
}

export interface FaultControl {
  /** Replaces every active fault with these. */
  set(faults: FaultSpec | FaultSpec[]): ActiveFault[];
  /** Adds one fault next to those already active. */
  add(fault: FaultSpec): ActiveFault;
  clear(): void;
  list(): ActiveFault[];
}

/** What the pipeline must do with one request, gathered from every fault that fired. */
export interface FaultPlan {
  delayBeforeMs: number;
  delayAfterMs: number;
  resetBefore: boolean;
  resetAfter: boolean;
  /** destroy the socket once the handler has received this many body bytes */
  resetAfterBodyBytes?: number;
  status?: number;
  retryAfterSeconds?: number;
}

export const DEFAULT_STALL_MS = 35_000;
export const DEFAULT_RESET_AFTER_BYTES = 64 * 1024;

interface Entry {
  fault: ActiveFault;
  random: () => number;
  /** matching requests let through so far, up to `skip` */
  skipped: number;
}

export interface FaultInjector extends FaultControl {
  plan(method: string, path: string): FaultPlan;
}

export function createFaultInjector(): FaultInjector {
  let entries: Entry[] = [];
  let nextId = 1;

  function add(spec: FaultSpec): ActiveFault {
    const fault: ActiveFault = { ...faultSpecSchema.parse(spec), id: nextId++, hits: 0 };
    entries.push({ fault, random: mulberry32(fault.seed ?? 1), skipped: 0 });
    return { ...fault };
  }

  function set(faults: FaultSpec | FaultSpec[]): ActiveFault[] {
    const specs = (Array.isArray(faults) ? faults : [faults]).map((f) => faultSpecSchema.parse(f));
    entries = [];
    return specs.map(add);
  }

  function plan(method: string, path: string): FaultPlan {
    const result: FaultPlan = { delayBeforeMs: 0, delayAfterMs: 0, resetBefore: false, resetAfter: false };
    for (const entry of entries) {
      if (!fires(entry, method, path)) continue;
      apply(entry.fault, result);
    }
    entries = entries.filter((e) => e.fault.count === undefined || e.fault.hits < e.fault.count);
    return result;
  }

  return {
    set,
    add,
    plan,
    clear: () => {
      entries = [];
    },
    list: () => entries.map((e) => ({ ...e.fault })),
  };
}

function fires(entry: Entry, method: string, path: string): boolean {
  const { fault } = entry;
  if (fault.path && !path.toLowerCase().includes(fault.path.toLowerCase())) return false;
  if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  if (fault.count !== undefined && fault.hits >= fault.count) return false;
  if (entry.skipped < (fault.skip ?? 0)) {
    entry.skipped += 1;
    return false;
  }
  // Drawn only for matching requests, so unrelated traffic does not shift a seeded sequence.
  if (fault.probability !== undefined && entry.random() >= fault.probability) return false;
  fault.hits += 1;
  return true;
}

function apply(fault: ActiveFault, plan: FaultPlan): void {
  switch (fault.kind) {
    case 'latency':
      plan.delayBeforeMs += fault.ms ?? 1000;
      break;
    case 'stall':
      plan.delayAfterMs += fault.ms ?? DEFAULT_STALL_MS;
      break;
    case 'reset-before':
      plan.resetBefore = true;
      break;
    case 'reset-after':
      plan.resetAfter = true;
      break;
    case 'reset-mid-body':
      plan.resetAfterBodyBytes = Math.min(plan.resetAfterBodyBytes ?? Infinity, fault.afterBytes ?? DEFAULT_RESET_AFTER_BYTES);
      break;
    case 'status-5xx':
      plan.status ??= fault.status ?? 503;
      break;
    case 'rate-limit':
      if (plan.status !== undefined) break;
      plan.status = 429;
      plan.retryAfterSeconds = fault.retryAfterSeconds ?? 1;
      break;
  }
}

/** Small, fast, seedable PRNG; quality is ample for choosing which requests fail. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
