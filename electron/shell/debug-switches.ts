// Switches that open the running app to a debugger: whoever can start PrintDesk could then read the tokens in
// its memory and drive its window. The packaged app's fuses turn off Node's own (--inspect and NODE_OPTIONS,
// see electron-builder.yml), but no fuse covers Chromium's remote debugging, so a packaged app refuses all
// of them at start. A build run from source (`npm start`) keeps them for development.

/** Chromium's and Node's debugging switches, as written after the dashes. */
const DEBUGGING = ['remote-debugging-port', 'remote-debugging-pipe', 'remote-debugging-address', 'inspect', 'inspect-brk', 'inspect-port', 'inspect-publish-uid', 'inspect-wait', 'debug', 'debug-brk'];

/**
 * The debugging switches among a launch's arguments. Chromium takes a switch after "--" or "-" (and "/" on
 * Windows, where it also ignores case), with or without "=value"; a lone "--" ends the switches.
 */
export function debuggingSwitches(args: readonly string[], platform: NodeJS.Platform = process.platform): string[] {
  const found: string[] = [];
  for (const arg of args) {
    if (arg === '--') break;
    const prefix = /^(--|-|\/)/.exec(arg)?.[0];
    if (!prefix || (prefix === '/' && platform !== 'win32')) continue;
    const name = arg.slice(prefix.length).split('=')[0];
    if (DEBUGGING.includes(platform === 'win32' ? name.toLowerCase() : name)) found.push(arg);
  }
  return found;
}
