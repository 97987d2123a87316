// `printdesk batch` against the sandbox: exit codes, the report file, re-runs that place nothing
// twice, and the default embedded sandbox in a child process.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { parseCsv } from '../../common/batch/parse-csv.ts';
import { runBatchCommand } from '../../electron/cli/batch.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { call, login, type TestSandbox } from '../../sandbox/testing.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { startBatchSandbox, stopBatchSandbox } from './batch-sandbox.ts';

const root = join(import.meta.dirname, '..', '..');
let sandbox: TestSandbox;
let projectId: string;
let dir: string;

before(async () => {
  ({ sandbox, projectId, dir } = await startBatchSandbox('batch-cli-'));
});
after(() => stopBatchSandbox({ sandbox, projectId, dir }));

const HEADER = 'orderReference,firstName,lastName,streetAddress,postal,city,country,phoneNumber,email,model,quantity';
const row = (ref: string, lastName = 'Lovelace', phone = '', email = 'ada@example.com') => `${ref},Ada,${lastName},Keizersgracht 1,1015 CJ,Amsterdam,NL,${phone},${email},Cube-binary.stl,1`;

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PRINTDESK_USER_DATA: join(dir, 'user-data'), PRINTDESK_EMAIL: DEMO_EMAIL, PRINTDESK_PASSWORD: sandbox.demoAccount.password, ...env },
  };
  const code = await runBatchCommand(args, io);
  return { code, stdout, stderr };
}

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, [HEADER, ...lines].join('\n'));
  return path;
}

const referencesOnService = async () => (await sandbox.operator.listOrders({ projectId })).map((o) => o.orderReference);

test('a good file: exit 0, every row placed, a report with order ids and no live formulas', async () => {
  const csv = file('good.csv', [row('C-1'), row('C-2', '"=HYPERLINK(""http://evil.example"",""x"")"'), row('')]);
  const report = join(dir, 'good-report.csv');
  const result = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl, '--report', report]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /All 3 rows placed/);
  const parsed = parseCsv(readFileSync(report));
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  assert.deepEqual(parsed.value.records.map((r) => r.cells[1]), ['placed', 'placed', 'placed']);
  assert.ok(parsed.value.records.every((r) => /^[0-9a-f-]{36}$/.test(r.cells[2])));
  assert.equal(parsed.value.records[1].cells[10 + 2], `'=HYPERLINK("http://evil.example","x")`);
  // Each order's shipping as charged: method, price and delivery window.
  const [shippedWith, cost, currency, from, by] = parsed.value.records[0].cells.slice(5, 10);
  assert.match(shippedWith, /^[A-Z]+ \w+$/);
  assert.match(cost, /^\d+\.\d\d$/);
  assert.equal(currency, 'EUR');
  assert.ok(from <= by && /^\d{4}-\d\d-\d\d$/.test(from), `${from} – ${by}`);
  // Before it sends, the run says what the orders cost to ship, by method and country.
  assert.match(result.stdout, /Shipping: €[\d.,]+ for 3 orders; delivery /);
  assert.match(result.stdout, /By country:\n {4}Netherlands: 3 orders, €/);
  assert.equal((await referencesOnService()).filter((r) => r === 'C-1').length, 1);

  const before = (await referencesOnService()).length;
  const again = await cli([csv, '--project', 'Demo project', '--service', sandbox.baseUrl]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal((await referencesOnService()).length, before, 'running the same file again places nothing');
  assert.match(again.stdout, /Nothing new to place: all 3 rows were placed before\./);
  // Another file with those orders and one more: what this run placed is told apart.
  const more = await cli([file('good-more.csv', [row('C-1'), row('C-3')]), '--project', projectId, '--service', sandbox.baseUrl]);
  assert.equal(more.code, 0, more.stderr);
  assert.match(more.stdout, /1 of 2 rows placed; 1 was placed before and skipped\./);
});

test('a dry run validates with live quotes and sends nothing', async () => {
  const result = await cli([file('dry.csv', [row('D-1')]), '--project', projectId, '--service', sandbox.baseUrl, '--dry-run', '--shipping', 'fastest']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Dry run: 1 order is valid; 1 would be sent/);
  // The same totals as the app's confirmation: cost, by method and country, delivery window.
  assert.match(result.stdout, /Shipping: €[\d.,]+ for 1 order; delivery \w{3}, \w{3} \d+/);
  assert.match(result.stdout, /By method:\n {4}(PostNL|DHL) [A-Z][a-z ]+: 1 order, €/);
  assert.equal((await referencesOnService()).includes('D-1'), false);
  // A file of orders placed before, in another file: the dry run says they would be skipped.
  const placed = await cli([file('dry-placed.csv', [row('C-1'), row('D-2')]), '--project', projectId, '--service', sandbox.baseUrl, '--dry-run']);
  assert.match(placed.stdout, /Dry run: 2 orders are valid; 1 was sent before and would be skipped, 1 would be sent/);
});

test('rows with problems: exit 2, each problem listed by row and column, the report written, nothing sent', async () => {
  const report = join(dir, 'bad-report.csv');
  const result = await cli([file('bad.csv', [row('B-1'), row('B-2', 'Lovelace', '', 'nope')]), '--project', projectId, '--service', sandbox.baseUrl, '--report', report]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /row 3, email: Not an email address/);
  assert.match(readFileSync(report, 'utf8'), /"3","invalid","","B-2","email: Not an email address"/);
  assert.equal((await referencesOnService()).some((r) => r.startsWith('B-')), false);
  // A dry run that leaves them out checks the others, and says what would be sent; not every row would
  // be, so it does not exit 0.
  const dry = await cli([file('bad.csv', [row('B-1'), row('B-2', 'Lovelace', '', 'nope')]), '--project', projectId, '--service', sandbox.baseUrl, '--dry-run', '--skip-invalid']);
  assert.equal(dry.code, 1, dry.stderr);
  assert.match(dry.stdout, /Still open:\n {2}1 row with other problems \(listed above\)/);
  assert.match(dry.stdout, /Dry run: 1 of 2 orders are valid \(1 with problems would be left out\); 1 would be sent\. Nothing was sent\./);
  // Columns that cannot be matched hold back every row: --skip-invalid is not the advice.
  writeFileSync(join(dir, 'odd.csv'), 'Given,Family\nAda,Lovelace\n');
  const odd = await cli([join(dir, 'odd.csv'), '--project', projectId, '--service', sandbox.baseUrl, '--skip-invalid']);
  assert.equal(odd.code, 2);
  assert.match(odd.stderr, /columns could not all be matched/);
  assert.doesNotMatch(odd.stderr, /--skip-invalid/);
  assert.equal((await referencesOnService()).some((r) => r.startsWith('B-')), false);
});

test('a malformed file, a missing file and a missing option are invalid input (exit 2)', async () => {
  const broken = join(dir, 'broken.csv');
  writeFileSync(broken, `${HEADER}\n${row('Q-1')}\nQ-2,"Ada,Lovelace\n`);
  const quotes = await cli([broken, '--project', projectId, '--service', sandbox.baseUrl]);
  assert.equal(quotes.code, 2);
  assert.match(quotes.stderr, /Line 3: a quoted field opened here is never closed/);
  assert.equal((await cli([join(dir, 'nope.csv'), '--project', projectId, '--service', sandbox.baseUrl])).code, 2);
  const usage = await cli([broken]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--project is required/);
});

test('an order the service rejects: exit 1 and the reason in the report', async () => {
  // The app checks what it can before sending, so a rejection only the service can give is staged: the
  // model row 3 names is deleted at the service once the orders are on their way (held there by latency).
  const star = await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Star-binary.stl'));
  const { accessToken } = await login(sandbox.baseUrl, sandbox.demoAccount);
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 1000 });
  const report = join(dir, 'partial.csv');
  const running = cli([file('partial-in.csv', [row('P-1'), row('P-2').replace('Cube-binary.stl', 'Star-binary.stl')]), '--project', projectId, '--service', sandbox.baseUrl, '--report', report]);
  while (sandbox.faults.list().every((fault) => fault.hits === 0)) await delay(10);
  const deleted = await call(sandbox.baseUrl, 'DELETE', `/Model3D/DeleteModel?modelId=${star.modelId}`, { token: accessToken });
  assert.equal(deleted.status, 200);
  const result = await running;
  sandbox.faults.clear();
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /1 of 2 rows were not placed/);
  assert.match(readFileSync(report, 'utf8'), /"3","rejected","","P-2","Model [0-9a-f-]+ does not exist/);
});

test('a service that cannot be reached, or a wrong password, is exit 3', async () => {
  const csv = file('unreachable.csv', [row('U-1')]);
  const offline = await cli([csv, '--project', projectId, '--service', 'http://127.0.0.1:9/v2']);
  assert.equal(offline.code, 3);
  assert.match(offline.stderr, /Cannot sign in/);
  const wrong = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl], { PRINTDESK_PASSWORD: 'wrong-password' });
  assert.equal(wrong.code, 3);
  assert.match(wrong.stderr, /Email or password is incorrect/);
});

test('a team store that cannot be reached is exit 3, said with where and without its password, and nothing is sent', async () => {
  const csv = file('team-unreachable.csv', [row('T-1')]);
  const result = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl], { PRINTDESK_STORE: 'postgres://shop:s3cret@127.0.0.1:9/printdesk' });
  assert.equal(result.code, 3, result.stderr);
  assert.match(result.stderr, /The team store at 127\.0\.0\.1:9 could not be reached/);
  assert.doesNotMatch(result.stderr, /s3cret/);
  assert.ok(!(await referencesOnService()).includes('T-1'));
});

test('the team store chosen in the app’s Settings is the batch’s too: one it cannot open is exit 3, and nothing goes to this computer’s instead', async () => {
  const csv = file('team-chosen.csv', [row('T-2')]);
  const userData = join(dir, 'user-data-team');
  mkdirSync(userData, { recursive: true });
  writeFileSync(join(userData, 'config.json'), JSON.stringify({ teamStore: { kind: 'team', connection: { host: '127.0.0.1', port: 9, database: 'printdesk', user: 'shop', tls: false } } }));
  const result = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl], { PRINTDESK_USER_DATA: userData });
  assert.equal(result.code, 3, result.stderr);
  assert.match(result.stderr, /The team store at 127\.0\.0\.1:9 could not be reached: .* \(the store chosen in the app’s Settings → Team\)\. Nothing was sent\./);
  assert.ok(!(await referencesOnService()).includes('T-2'));
});

test('a password can come from PRINTDESK_PASSWORD_FILE; a missing, empty or doubled one is exit 2 before anything is sent', async () => {
  const csv = file('password-file.csv', [row('F-1')]);
  const secret = join(dir, 'password.txt');
  writeFileSync(secret, `${sandbox.demoAccount.password}\n`, { mode: 0o600 });
  const fromFile = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl], { PRINTDESK_PASSWORD: '', PRINTDESK_PASSWORD_FILE: secret });
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.doesNotMatch(fromFile.stderr, /Warning/);
  assert.ok((await referencesOnService()).includes('F-1'));

  const open = join(dir, 'open-password.txt');
  writeFileSync(open, sandbox.demoAccount.password, { mode: 0o644 });
  chmodSync(open, 0o644);
  const warned = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl, '--dry-run'], { PRINTDESK_PASSWORD: '', PRINTDESK_PASSWORD_FILE: open });
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /can be read by other users of this computer \(chmod 600 it\)/);

  const empty = join(dir, 'empty-password.txt');
  writeFileSync(empty, '\n');
  const refusals = [
    [{ PRINTDESK_PASSWORD: '', PRINTDESK_PASSWORD_FILE: join(dir, 'no-such-file') }, /Cannot read PRINTDESK_PASSWORD_FILE .*no such file/],
    [{ PRINTDESK_PASSWORD: '', PRINTDESK_PASSWORD_FILE: empty }, /is empty: its first line is the password/],
    [{ PRINTDESK_PASSWORD_FILE: secret }, /not both/],
  ] as const;
  const before = (await referencesOnService()).length;
  for (const [env, message] of refusals) {
    const refused = await cli([file('refused.csv', [row('F-2')]), '--project', projectId, '--service', sandbox.baseUrl], env);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, message);
  }
  assert.equal((await referencesOnService()).length, before, 'nothing was sent');
});

test('without credentials in the environment, a terminal is asked for a real service: a wrong password may be typed again, none at all stops', async () => {
  const csv = file('asked.csv', [row('A-1')]);
  const run = async (answers: string[]) => {
    const asked: { question: string; hidden: boolean }[] = [];
    let stderr = '';
    const code = await runBatchCommand([csv, '--project', projectId, '--service', sandbox.baseUrl], {
      stdout: { write: () => true, isTTY: false },
      stderr: { write: (text: string) => (stderr += text) },
      env: { PRINTDESK_USER_DATA: join(dir, 'user-data') },
      ask: async (question, options) => {
        asked.push({ question, hidden: options?.hidden === true });
        return answers.shift() ?? '';
      },
    });
    return { code, asked, stderr };
  };
  const typed = await run([DEMO_EMAIL, 'wrong-password', sandbox.demoAccount.password]);
  assert.equal(typed.code, 0, typed.stderr);
  assert.deepEqual(typed.asked, [{ question: 'Email: ', hidden: false }, { question: 'Password: ', hidden: true }, { question: 'Password: ', hidden: true }]);
  assert.match(typed.stderr, /Email or password is incorrect\. Try again\./);
  assert.ok((await referencesOnService()).includes('A-1'));
  const none = await run([DEMO_EMAIL, '']);
  assert.equal(none.code, 3);
  assert.match(none.stderr, /No password given: nothing was sent/);
  const thrice = await run([DEMO_EMAIL, 'a', 'b', 'c', sandbox.demoAccount.password]);
  assert.equal(thrice.code, 3);
  assert.equal(thrice.asked.length, 4, 'three tries, then it stops');
  // A password is taken as typed: spaces around it are part of it.
  const spaced = await run([DEMO_EMAIL, ` ${sandbox.demoAccount.password} `]);
  assert.equal(spaced.code, 3);
});

test('without --service the CLI starts the embedded sandbox in the app data dir and prints plain progress lines', { timeout: 60_000 }, async () => {
  const userData = join(dir, 'embedded');
  const seeded = await startSandbox({ dataDir: join(userData, 'sandbox'), quiet: true });
  const project = (await seeded.operator.listProjects())[0].projectId;
  await seeded.operator.addModel(project, join(corpus, 'stl', 'Cube-binary.stl'));
  await seeded.close();
  const csv = file('embedded.csv', [row('E-1'), row('E-2')]);
  const script = "import('./electron/cli/batch.ts').then((m) => m.runBatchCommand(process.argv.slice(1))).then((code) => process.exit(code))";
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-e', script, csv, '--project', project], {
    cwd: root,
    env: { ...process.env, PRINTDESK_USER_DATA: userData, PRINTDESK_EMAIL: '', PRINTDESK_PASSWORD: '' },
  });
  assert.match(stderr, /as demo@printdesk.test/);
  assert.match(stdout, /progress: 2\/2 sent: 2 placed, 0 failed, 0 left/);
  assert.match(stdout, /All 2 rows placed/);
  const after = await startSandbox({ dataDir: join(userData, 'sandbox'), quiet: true });
  assert.deepEqual((await after.operator.listOrders({ projectId: project })).map((o) => o.orderReference).sort(), ['E-1', 'E-2']);
  await after.close();
});

test('Ctrl+C while sending: exit 130, the orders on their way written down, and the same command again places the rest once', { timeout: 60_000 }, async () => {
  const refs = Array.from({ length: 120 }, (_, i) => `I-${i}`);
  const csv = file('interrupt.csv', refs.map((ref) => row(ref)));
  const env = { ...process.env, PRINTDESK_USER_DATA: join(dir, 'interrupt'), PRINTDESK_EMAIL: DEMO_EMAIL, PRINTDESK_PASSWORD: sandbox.demoAccount.password };
  const report = join(dir, 'interrupt-report.csv');
  const args = [join(root, 'bin', 'printdesk.js'), 'batch', csv, '--project', projectId, '--service', sandbox.baseUrl, '--report', report];
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 400 });
  try {
    const child = spawn(process.execPath, args, { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Interrupted once the first orders are placed, with most still to go.
    while (!(await referencesOnService()).some((ref) => ref.startsWith('I-'))) await delay(50);
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 130, `${stdout}\n${stderr}`);
    assert.match(stderr, /Interrupted: orders not yet sent stay queued/);
    assert.doesNotMatch(stderr, /database|TypeError/i);
    // The orders on their way were stopped, not waited for: the report says their outcome is not known yet,
    // and calls placed only what the service answered.
    const parsed = parseCsv(readFileSync(report));
    assert.ok(parsed.ok);
    const records = parsed.ok ? parsed.value.records : [];
    const onService = new Set((await referencesOnService()).filter((ref) => ref.startsWith('I-')));
    for (const record of records.filter((r) => r.cells[1] === 'placed')) assert.ok(onService.has(record.cells[3]), `${record.cells[3]} reported placed`);
    for (const record of records.filter((r) => onService.has(r.cells[3]) && r.cells[1] !== 'placed')) assert.match(record.cells[4], /not known yet|never placed twice/);
  } finally {
    sandbox.faults.clear();
  }
  const again = await cli([csv, '--project', projectId, '--service', sandbox.baseUrl], { PRINTDESK_USER_DATA: join(dir, 'interrupt') });
  assert.equal(again.code, 0, again.stderr);
  const placed = (await referencesOnService()).filter((ref) => ref.startsWith('I-'));
  assert.deepEqual(placed.sort(), [...refs].sort());
});
