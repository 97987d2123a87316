// Bodies fetched by a worker kept for the purpose and handed over whole (transferred): on the page's main
// thread, `arrayBuffer()` held it half a second at the end for 100 MB, and reading the stream there a
// second in all, chunk by chunk. The worker is made once: making one per fetch (a Blob, its URL, the
// worker's start) cost the page's thread about 30 ms each time.

type Answer = { id: number; body?: ArrayBuffer; error?: string };

const SOURCE = `onmessage = async ({ data: { id, url } }) => {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) throw new Error('HTTP ' + response.status);
    const body = await response.arrayBuffer();
    postMessage({ id, body }, [body]);
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};`;

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (body: ArrayBuffer) => void; reject: (error: Error) => void }>();

function fetcher(): Worker {
  if (worker) return worker;
  const made = new Worker(URL.createObjectURL(new Blob([SOURCE], { type: 'text/javascript' })), { name: 'model-file' });
  made.onmessage = ({ data }: MessageEvent<Answer>) => {
    const settle = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.body) settle?.resolve(data.body);
    else settle?.reject(new Error(data.error ?? 'no body'));
  };
  // A worker that broke fails what it was fetching, and the next fetch makes a new one.
  made.onerror = (event) => {
    for (const settle of waiting.values()) settle.reject(new Error(event.message));
    waiting.clear();
    made.terminate();
    if (worker === made) worker = null;
  };
  worker = made;
  return made;
}

/** Starts the worker ahead of the first fetch (a large model's first picture is waited for). */
export function readyFetcher(): void {
  try {
    fetcher();
  } catch {
    // No worker here: each fetch finds out for itself and reads on the page.
  }
}

/** The body of `url`, fetched off the page's thread; a rejection when no worker can be made here. */
export function fetchOffThread(url: string): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    try {
      fetcher().postMessage({ id, url });
    } catch (error) {
      waiting.delete(id);
      reject(error as Error);
    }
  });
}
