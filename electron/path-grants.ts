// The files the host may read for the page: those the user handed over. The page names files by path
// (an upload, a batch's CSV), and a page made to misbehave could name any path; the host then reads only
// a path the user chose in a system dialog, dropped or picked in the window (the preload, or browser
// mode's staging, vouches for it), or opened with PrintDesk, or one inside a folder handed over so.
import { basename, dirname, resolve } from 'node:path';
import { HostError } from './api/errors.ts';

export class PathGrants {
  readonly #granted = new Set<string>();

  grant(paths: Iterable<string>): void {
    for (const path of paths) if (path) this.#granted.add(resolve(path));
  }

  /** Whether `path` was handed over, or lies in a folder that was. */
  allows(path: string): boolean {
    for (let at = resolve(path); ; at = dirname(at)) {
      if (this.#granted.has(at)) return true;
      if (dirname(at) === at) return false;
    }
  }

  /**
   * Throws for the first path not handed over. The same answer whether or not the file exists, so the
   * page cannot learn which paths do.
   */
  check(paths: readonly string[]): void {
    const refused = paths.find((path) => !this.allows(path));
    if (refused !== undefined) {
      throw new HostError('INVALID_INPUT', `PrintDesk was not given ${basename(refused)}: choose it with a file dialog, drop it on the window, or open it with PrintDesk.`);
    }
  }
}
