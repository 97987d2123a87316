// Browser mode, one per data folder: a second launch hands its files to the first, which comes forward as a
// browser allows (its open page is told; with none open, it opens one), and ends.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AlreadyRunning, startBrowserMode, type RunningBrowserMode } from '../../electron/browser/main.ts';
import { HANDOFF_HEADER, HANDOFF_PATH } from '../../electron/services/instance/handoff.ts';
import { claimInstance, instanceFile } from '../../electron/services/instance/lock.ts';
import { makePrivateDir } from '../../electron/services/private-files.ts';
import { bridge } from './bridge-client.ts';

const base = mkdtempSync(join(tmpdir(), 'printdesk-one-instance-'));
const opened: string[] = [];
let first: RunningBrowserMode;
let dir: string;

before(async () => {
  dir = join(base, 'data');
  first = await startBrowserMode({ userDataDir: dir, openBrowser: (file) => opened.push(file) });
});
after(async () => {
  await first.close();
  rmSync(base, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function secondLaunch(files: string[], userDataDir = dir): Promise<AlreadyRunning> {
  const error = await startBrowserMode({ userDataDir, openBrowser: false, files }).then(
    async (running) => {
      await running.close();
      return null;
    },
    (error: unknown) => error,
  );
  assert.ok(error instanceof AlreadyRunning, `the second launch started: ${String(error)}`);
  return error;
}

test('a second launch with files, while a page is open: the page is told and offered them, and the launch ends', async () => {
  assert.deepEqual(opened, [first.launchFile], 'the first launch opened the browser on itself');
  const page = await bridge(first.server.origin, first.server.secret);
  try {
    const ended = await secondLaunch(['/home/ada/part.stl', '/home/ada/notes.txt']);
    assert.equal(ended.launch.kind, 'handed-over');
    assert.match(ended.message, /already running on this data folder at http:\/\/127\.0\.0\.1:\d+; the file was handed to it to upload: its page in your browser has them/);
    await until(() => page.events.some((e) => e.event === 'files:opened'), 'the open page to hear of them');
    assert.deepEqual((await page.call('files:takeOpened')).value, ['/home/ada/part.stl']);
    assert.deepEqual(opened, [first.launchFile], 'no second page was opened');
  } finally {
    page.close();
  }
});

test('a second launch while no page is open: the first opens the browser on itself again', async () => {
  await until(() => first.server.pages() === 0, 'the page of the test before to close');
  const ended = await secondLaunch([]);
  assert.match(ended.message, /it opened in your browser/);
  assert.deepEqual(opened, [first.launchFile, first.launchFile]);
});

test('browser mode does not start on a data folder the desktop app has, and says so', async () => {
  const desktop = makePrivateDir(join(base, 'desktop'));
  const claim = claimInstance(desktop, 'electron');
  assert.ok(claim.claimed);
  try {
    const ended = await secondLaunch([], desktop);
    assert.equal(ended.launch.kind, 'desktop-running');
    assert.match(ended.message, /already open as a desktop app on this data folder/);
  } finally {
    claim.claim.release();
  }
});

test('what a crashed browser mode left (its process alive under another use, its port closed) does not hold a new start', async () => {
  const crashed = join(base, 'crashed');
  const stale = await startBrowserMode({ userDataDir: crashed, openBrowser: false });
  const left = readFileSync(instanceFile(crashed), 'utf8');
  await stale.close();
  // The file as a crash leaves it, naming a living process (ours) at an address where nothing listens now.
  writeFileSync(instanceFile(crashed), left);
  const again = await startBrowserMode({ userDataDir: crashed, openBrowser: false });
  await again.close();
});

test('only a launch that can read instance.json may hand files over: no page, no guess', async () => {
  const handoff = (headers: Record<string, string>) => fetch(`${first.server.origin}${HANDOFF_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"paths":["/etc/passwd.stl"]}' });
  const { handoffSecret } = JSON.parse(readFileSync(instanceFile(dir), 'utf8')) as { handoffSecret: string };
  assert.equal((await handoff({ [HANDOFF_HEADER]: 'guess' })).status, 403);
  assert.equal((await handoff({})).status, 403);
  assert.equal((await handoff({ [HANDOFF_HEADER]: handoffSecret, origin: first.server.origin })).status, 403, 'a page (even ours) never hands files over');
  const page = await bridge(first.server.origin, first.server.secret);
  try {
    assert.deepEqual((await page.call('files:takeOpened')).value, []);
  } finally {
    page.close();
  }
});
