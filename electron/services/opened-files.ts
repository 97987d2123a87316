// The files a launch was given ("Open with", a file manager, `npm start -- model.stl`), from its arguments:
// switches (Chromium's and Electron's among them) are not files, and a relative path is the launching
// shell's, so it is resolved against that launch's working folder, not the running instance's.
import { isAbsolute, resolve } from 'node:path';

export function openedPaths(args: readonly string[], workingDirectory: string): string[] {
  return args.filter((arg) => arg !== '' && !arg.startsWith('-')).map((arg) => (isAbsolute(arg) ? arg : resolve(workingDirectory, arg)));
}
