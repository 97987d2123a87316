// A small HTTP load generator, run as its own process so it does not share an event loop with the
// server it measures: N keep-alive connections, each sending its next request as soon as the last
// answer is in, for a fixed time after a warm-up. Prints one JSON result on stdout.
//   node bench/load-generator.ts '<json LoadSpec>'
// In a body, {{n}} becomes a number unique to the request (e.g. a fresh orderReference).
import http from 'node:http';

export interface LoadSpec {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationMs: number;
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** answers by HTTP status, plus "error" for failed exchanges */
  statuses: Record<string, number>;
  latencyMs: { p50: number; p99: number };
}

export async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const prefix = `${process.pid}-${Date.now()}`;
  let counter = 0;
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const started = performance.now();
  const measureFrom = started + (spec.warmupMs ?? 0);
  const end = measureFrom + spec.durationMs;

  function once(): Promise<void> {
    const body = spec.body?.replaceAll('{{n}}', `${prefix}-${counter++}`);
    const sent = performance.now();
    return new Promise((resolve) => {
      const record = (status: string) => {
        const at = performance.now();
        if (sent >= measureFrom && at <= end) {
          statuses[status] = (statuses[status] ?? 0) + 1;
          latencies.push(at - sent);
        }
        resolve();
      };
      const headers = { ...spec.headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
      const req = http.request(spec.url, { method: spec.method, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => record(String(res.statusCode)));
        res.on('error', () => record('error'));
      });
      req.on('error', () => record('error'));
      req.end(body);
    });
  }

  async function connection(): Promise<void> {
    while (performance.now() < end) await once();
  }

  await Promise.all(Array.from({ length: spec.connections }, connection));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  const pick = (q: number) => Number((latencies[Math.min(requests - 1, Math.floor(q * requests))] ?? 0).toFixed(2));
  return { requests, requestsPerSecond: Math.round(requests / (spec.durationMs / 1000)), statuses, latencyMs: { p50: pick(0.5), p99: pick(0.99) } };
}

if (process.argv[1] === import.meta.filename) {
  const result = await generateLoad(JSON.parse(process.argv[2]) as LoadSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
