// `npm run bench -- sandbox`: the sandbox's throughput for GetShippingMethods and CreateOrder on
// loopback, driven by a second process (bench/load-generator.ts), beside a minimal node:http
// server answering a fixed JSON envelope, driven the same way in the same run.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestSandbox, login } from '../sandbox/testing.ts';
import type { LoadResult, LoadSpec } from './load-generator.ts';
import type { BenchResult } from './run.ts';

const execFileAsync = promisify(execFile);
const CONNECTIONS = 8;
const DURATION_MS = 5000;
const WARMUP_MS = 1000;
const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');

/** Runs the load generator in its own process against one endpoint. */
async function load(spec: Omit<LoadSpec, 'connections' | 'durationMs' | 'warmupMs'>): Promise<LoadResult> {
  const full: LoadSpec = { ...spec, connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: WARMUP_MS };
  const { stdout } = await execFileAsync(process.execPath, [path.join(import.meta.dirname, 'load-generator.ts'), JSON.stringify(full)]);
  return JSON.parse(stdout) as LoadResult;
}

/** The floor: node:http answering a fixed envelope without reading anything but the body. */
async function baselineServer(): Promise<{ url: string; close(): Promise<void> }> {
  const payload = Buffer.from(JSON.stringify({ success: true, data: { methods: [] } }));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': payload.length }).end(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function result(name: string, ours: LoadResult, baseline: LoadResult, baselineName: string): BenchResult {
  return {
    name,
    value: ours.requestsPerSecond,
    unit: 'req/s',
    baseline: { name: baselineName, value: baseline.requestsPerSecond },
    ratio: Number((ours.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)),
    statuses: ours.statuses,
    latencyMs: ours.latencyMs,
    tool: `bench/load-generator.ts in a second process, ${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up`,
  };
}

export async function run(): Promise<BenchResult[]> {
  const unlimited = { limit: 1_000_000_000, windowSeconds: 60 };
  const sandbox = await startTestSandbox({ rateLimits: { default: unlimited, 'Auth/Login': unlimited } });
  const baseline = await baselineServer();
  try {
    const { accessToken } = await login(sandbox.baseUrl, sandbox.demoAccount);
    const projectId = (await sandbox.operator.listProjects())[0].projectId;
    const model = await sandbox.operator.addModel(projectId, path.join(CORPUS, 'stl', 'Cube-binary.stl'));
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` };
    const shippingBody = JSON.stringify({ country: 'DE', models: [{ modelId: model.modelId, quantity: 2 }] });
    const orderBody = JSON.stringify({
      projectId, firstName: 'Zoë', lastName: 'Bench', streetAddress: 'Prinsengracht 263', postal: '1016 GV', city: 'Amsterdam',
      country: 'NL', email: 'bench@example.com', models: [{ modelId: model.modelId, quantity: 1 }], shippingMethod: 201, orderReference: 'bench-{{n}}',
    });
    const floor = await load({ url: baseline.url, method: 'POST', headers, body: shippingBody });
    const shipping = await load({ url: `${sandbox.baseUrl}/Shipping/GetShippingMethods`, method: 'POST', headers, body: shippingBody });
    const orders = await load({ url: `${sandbox.baseUrl}/Order/CreateOrder`, method: 'POST', headers, body: orderBody });
    const floorName = 'minimal node:http server answering a fixed JSON envelope';
    return [
      result('sandbox POST /Shipping/GetShippingMethods throughput', shipping, floor, floorName),
      result('sandbox POST /Order/CreateOrder throughput (new order each, fsync per commit)', orders, floor, floorName),
    ];
  } finally {
    await baseline.close();
    await sandbox.dispose();
  }
}
