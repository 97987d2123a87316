// A small pool of model workers. `parse` hands the file's bytes to an idle worker (transferred, not copied)
// and resolves with the parsed model; a cancelled parse terminates its worker, since parsing is synchronous.
import { ModelParseError, type ModelArrays, type ParsedModel } from '../../common/models/index.ts';
import type { StageMarks } from './marks.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

/** What the pool needs from a Worker; tests pass an in-process fake. */
export interface WorkerLike {
  postMessage(message: WorkerRequest, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<WorkerReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

export interface ParseCall {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Return open edges as segments for the highlight. */
  boundaryEdges?: boolean;
  /** Leave out welding, edges and shells (a thumbnail needs none of them). */
  skipTopology?: boolean;
  /** Also a copy of about this many triangles (`model.proxy`) for a model that has more. */
  proxy?: number;
  /** Only a picture is wanted: the model comes back as that copy, its facts unchanged. */
  pictureOnly?: boolean;
  /**
   * Hears the model as soon as it is read and measured, with `facts.topology` pending; the promise then
   * resolves with the same positions and the complete facts. With `arraysFollow`, a large model comes as
   * its proxy alone (its positions empty), and `onArrays` hears its arrays soon after.
   */
  onMesh?: (model: ParsedModel, arraysFollow: boolean) => void;
  onArrays?: (arrays: ModelArrays) => void;
  /** Hears when the worker went through each stage of reading (see marks.ts). */
  onMarks?: (marks: StageMarks) => void;
}

export interface ModelClient {
  /** Bytes given as an ArrayBuffer are transferred to the worker: the caller's buffer is detached. */
  parse(source: File | ArrayBuffer, name: string, call?: ParseCall): Promise<ParsedModel>;
  dispose(): void;
}

interface Job {
  request: WorkerRequest;
  call: ParseCall;
  early: ParsedModel | null;
  resolve: (model: ParsedModel) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: WorkerLike;
  job: Job | null;
}

export function defaultWorkerFactory(): WorkerLike {
  return new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module', name: 'model-parser' }) as unknown as WorkerLike;
}

function abortError(): Error {
  return new ModelParseError('CANCELLED', 'Reading the model was cancelled.');
}

/** The last reply of a job: its model, its early model completed with the topology's facts, or an error. */
function settle(job: Job, reply: Exclude<WorkerReply, { type: 'progress' | 'mesh' | 'arrays' }>): void {
  if (reply.type === 'result') return job.resolve(reply.model);
  if (reply.type === 'topology') {
    if (!job.early) return job.reject(new Error('The model worker sent facts without a model.'));
    return job.resolve({ ...job.early, facts: reply.facts, ...(reply.boundaryEdges ? { boundaryEdges: reply.boundaryEdges } : {}) });
  }
  if (reply.error.code === 'INTERNAL') return job.reject(new Error(reply.error.message));
  job.reject(new ModelParseError(reply.error.code, reply.error.message, reply.error.where));
}

export function createModelClient(options: { size?: number; createWorker?: () => WorkerLike } = {}): ModelClient {
  const size = Math.max(1, options.size ?? Math.min(2, Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1)));
  const createWorker = options.createWorker ?? defaultWorkerFactory;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let disposed = false;

  const finish = (slot: Slot) => {
    slot.job = null;
    pump();
  };

  const spawn = (): Slot => {
    const slot: Slot = { worker: createWorker(), job: null };
    slot.worker.onmessage = (event) => {
      const reply = event.data;
      const job = slot.job;
      if (!job || reply.id !== job.request.id) return;
      if (reply.type === 'progress') return job.call.onProgress?.(reply.fraction);
      if (reply.type === 'mesh' || reply.type === 'arrays' || reply.type === 'result') job.call.onMarks?.(reply.marks);
      if (reply.type === 'mesh') {
        job.early = reply.model;
        return job.call.onMesh?.(reply.model, reply.arraysFollow);
      }
      if (reply.type === 'arrays') {
        if (job.early) job.early = { ...job.early, ...reply.arrays };
        return job.call.onArrays?.(reply.arrays);
      }
      settle(job, reply);
      finish(slot);
    };
    slot.worker.onerror = (event) => {
      slot.job?.reject(new Error(`The model worker crashed: ${event.message}`));
      replace(slot);
    };
    slots.push(slot);
    return slot;
  };

  const replace = (slot: Slot) => {
    slot.worker.terminate();
    slots.splice(slots.indexOf(slot), 1);
    pump();
  };

  const pump = () => {
    while (queue.length > 0 && !disposed) {
      const slot = slots.find((candidate) => !candidate.job) ?? (slots.length < size ? spawn() : null);
      if (!slot) return;
      const job = queue.shift() as Job;
      slot.job = job;
      slot.worker.postMessage(job.request, [job.request.bytes]);
    }
  };

  const parse = async (source: File | ArrayBuffer, name: string, call: ParseCall = {}): Promise<ParsedModel> => {
    if (disposed) throw new Error('The model client has been disposed.');
    if (call.signal?.aborted) throw abortError();
    const bytes = source instanceof ArrayBuffer ? source : await source.arrayBuffer();
    if (call.signal?.aborted) throw abortError();
    return new Promise<ParsedModel>((resolve, reject) => {
      const { boundaryEdges, skipTopology, proxy, pictureOnly } = call;
      const request: WorkerRequest = { type: 'parse', id: nextId++, bytes, name, boundaryEdges, skipTopology, proxy, pictureOnly, early: Boolean(call.onMesh) };
      const job: Job = { request, call, early: null, resolve, reject };
      call.signal?.addEventListener('abort', () => {
        const queued = queue.indexOf(job);
        if (queued >= 0) queue.splice(queued, 1);
        const running = slots.find((slot) => slot.job === job);
        if (running) replace(running);
        reject(abortError());
      }, { once: true });
      queue.push(job);
      pump();
    });
  };

  const dispose = () => {
    disposed = true;
    for (const job of queue.splice(0)) job.reject(new Error('The model client has been disposed.'));
    for (const slot of slots.splice(0)) {
      slot.job?.reject(new Error('The model client has been disposed.'));
      slot.worker.terminate();
    }
  };

  return { parse, dispose };
}

let shared: ModelClient | null = null;

/** One pool for the whole renderer: workers are reused across previews and thumbnails. */
export function sharedModelClient(): ModelClient {
  shared ??= createModelClient();
  return shared;
}
