// Starts the app as browser mode does (real host, real embedded sandbox, the secret-checked
// WebSocket bridge) and opens the built renderer in Debian's Chromium.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { bootHost, type Booted } from '../../electron/services/boot.ts';
import { createPreferences } from '../../electron/services/storage/preferences.ts';
import { startBrowserServer, type BrowserServer } from '../../electron/browser/server.ts';
import type { SandboxOptions } from '../../sandbox/server.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';

const root = join(import.meta.dirname, '..', '..');
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface AppUnderTest {
  page: Page;
  booted: Booted;
  server: BrowserServer;
  dir: string;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Apps not closed by their test (it failed before its last line): their host and sandbox would keep the
 * test file's process alive, and a failure would hang the run instead of ending it.
 */
const leftOpen = new Set<() => Promise<void>>();

/** Each test file's last step: whatever its tests left open, then the browser. */
export async function closeAll(browser: Browser | undefined): Promise<void> {
  await Promise.allSettled([...leftOpen].map((shutdown) => shutdown()));
  await browser?.close();
}

/** A second workstation of a team: its own data folder, the team's store, and the first one's service. */
export interface TeamOptions {
  teamStore: string;
  /** the service's base URL; unset, the app's own embedded sandbox */
  service?: string;
}

/** The host as browser mode starts it, with its sandbox (unless a team's service is given), and its server. */
async function startHost(dir: string, store: ReturnType<typeof createMemoryStore>, sandboxOptions: Partial<SandboxOptions>, team?: TeamOptions) {
  const booted = await bootHost({
    mode: 'browser',
    version: '0.0.0-e2e',
    userDataDir: dir,
    store,
    sandbox: !team?.service,
    teamStore: team?.teamStore,
    vault: createMemoryVault('Browser mode has no access to the system keychain, so you will sign in again after a restart.'),
    sandboxOptions,
    timeoutMs: 5_000,
  });
  try {
    const server = await startBrowserServer({
      host: booted.host,
      rendererDir: join(root, 'dist', 'renderer'),
      bridgeScript: join(root, 'dist', 'browser', 'bridge.js'),
      stageDir: join(dir, 'staged'),
    });
    return { booted, server };
  } catch (error) {
    await booted.close();
    throw error;
  }
}

export async function openApp(browser: Browser, sandboxOptions: Partial<SandboxOptions> = {}, team?: TeamOptions): Promise<AppUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'printdesk-e2e-'));
  const store = createMemoryStore();
  if (team?.service) createPreferences(store).setService({ kind: 'custom', baseUrl: team.service });
  // The browser's side (a context, a page: a renderer process to start) is made while the host boots.
  const opening = browser.newContext({ viewport: { width: 1200, height: 780 } }).then(async (context) => ({ context, page: await context.newPage() }));
  const started = startHost(dir, store, sandboxOptions, team);
  // A host that could not start leaves no context behind.
  const [hostSide, browserSide] = await Promise.allSettled([started, opening]);
  if (hostSide.status === 'rejected') {
    if (browserSide.status === 'fulfilled') await browserSide.value.context.close();
    throw hostSide.reason;
  }
  if (browserSide.status === 'rejected') {
    await hostSide.value.server.close();
    await hostSide.value.booted.close();
    throw browserSide.reason;
  }
  const { booted, server } = hostSide.value;
  const { context, page } = browserSide.value;
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) problems.push(message.text());
  });
  const shutdown = async () => {
    leftOpen.delete(shutdown);
    await context.close();
    await server.close();
    await booted.close();
    await rm(dir, { recursive: true, force: true });
  };
  leftOpen.add(shutdown);
  await page.goto(server.url);
  return {
    page,
    booted,
    server,
    dir,
    async screenshot(name) {
      await mkdir(join(root, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(root, 'test-results', `${name}.png`) });
    },
    async close() {
      await shutdown();
      if (problems.length) throw new Error(`The page reported errors:\n${problems.join('\n')}`);
    },
  };
}

/** An app closed when the test ends, with its sandbox and that sandbox's first project (for models added behind its back). */
export async function openAppOnProject(browser: Browser, t: TestContext) {
  const app = await openApp(browser);
  t.after(() => app.close());
  const sandbox = app.booted.sandbox;
  if (!sandbox) throw new Error('The app started without its sandbox');
  const [project] = await sandbox.operator.listProjects();
  return { app, sandbox, project };
}
