// One worker thread that answers jobs by id, started on the first job and ended once idle: parsing a model
// is synchronous, and the host's thread must keep answering the window meanwhile. The thread's side is
// answerJobs (below), run in the worker's script.
import { parentPort, Worker, type Transferable } from 'node:worker_threads';

/** The worker is ended when no job has come for this long. */
const IDLE_MS = 10_000;

export interface ThreadJobs<Request, Reply> {
  /** The worker's answer; `failed` when the worker cannot run or stops (the job is then not worth failing for). */
  run(request: Request, transfer?: readonly Transferable[]): Promise<Reply>;
  close(): Promise<void>;
}

type Envelope<T> = { id: number; body: T };

/** `script`: a URL beside the caller's module (the bundle's sibling built, the source as TypeScript). */
export function createThreadJobs<Request, Reply>(script: URL, failed: Reply): ThreadJobs<Request, Reply> {
  let worker: Worker | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let nextId = 1;
  const waiting = new Map<number, (reply: Reply) => void>();

  const close = async () => {
    clearTimeout(idle);
    const stopping = worker;
    worker = null;
    for (const resolve of waiting.values()) resolve(failed);
    waiting.clear();
    await stopping?.terminate();
  };

  const started = (): Worker => {
    if (worker) return worker;
    const made = new Worker(script);
    made.on('message', ({ id, body }: Envelope<Reply>) => {
      waiting.get(id)?.(body);
      waiting.delete(id);
      if (waiting.size === 0) idle = setTimeout(() => void close(), IDLE_MS);
    });
    made.on('error', () => void close());
    made.unref();
    worker = made;
    return made;
  };

  return {
    run(request, transfer = []) {
      clearTimeout(idle);
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        started().postMessage({ id, body: request } satisfies Envelope<Request>, [...transfer]);
      });
    },
    close,
  };
}

/** The worker's side: each job's answer, with the buffers it hands back rather than copies. */
export function answerJobs<Request, Reply>(answer: (request: Request) => Promise<{ reply: Reply; transfer?: Transferable[] }>): void {
  parentPort?.on('message', async ({ id, body }: Envelope<Request>) => {
    const { reply, transfer } = await answer(body);
    parentPort?.postMessage({ id, body: reply } satisfies Envelope<Reply>, transfer ?? []);
  });
}

/** A worker script beside `moduleUrl`: `name.ts` when the host runs as TypeScript, the built `name.mjs` otherwise. */
export function siblingScript(moduleUrl: string, name: string): URL {
  return new URL(moduleUrl.endsWith('.ts') ? `./${name}.ts` : `./${name}.mjs`, moduleUrl);
}
