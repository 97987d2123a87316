#!/usr/bin/env node
// Launcher for the `printdesk` command. The CLI is TypeScript run natively (type stripping), which needs
// Node 22.6 or newer; npm puts the project's Node 24 first on PATH, a bare system `node` may be older.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 6)) {
  process.stderr.write(`printdesk needs Node.js 22.6 or newer (this is ${process.versions.node}). Run it through npm (npx printdesk …), which uses the project's Node 24.\n`);
  process.exit(2);
}
// restrictUmask's rule (electron/services/private-files.ts) from the first file written on, the compile cache's
// folder among them: that TypeScript file is imported only once the cache is on (below).
if (process.platform !== 'win32') process.umask(0o077);
// V8's compiled code, the TypeScript stripped from it included, is kept between runs (in the system's temp
// folder, keyed by the sources' contents): a run then starts in a third of the time, with 25 MB less. It
// is on before the first TypeScript file is imported: one imported before it is stripped by the bundled
// TypeScript tools, whose loading alone took 0.1 s and 14 MB of every run.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { restrictUmask } = await import('../electron/services/private-files.ts');
restrictUmask();
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
