// The files the host may read for the page: those the user handed over. The page names files by path
// (an upload, a batch's CSV), and a page made to misbehave could name any path; the host then reads only
// a path the user chose in a system dialog, dropped or picked in the window (the preload, or browser
// mode's staging, vouches for it), or opened with PrintDesk, or one inside a folder handed over so.
import { realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { HostError } from './api/errors.ts';

export class PathGrants {
  readonly #granted = new Set<string>();

  grant(paths: Iterable<string>): void {
    for (const path of paths) {
      if (!path) continue;
      this.#granted.add(resolve(path));
      this.#granted.add(real(path));
    }
  }

  /**
   * Whether `path` was handed over, or (unless `exact`) lies in a folder that was. Inside a folder, where
   * the file really is counts: a link in a handed-over folder does not hand over what it points to.
   */
  allows(path: string, exact = false): boolean {
    if (this.#granted.has(resolve(path))) return true;
    if (exact) return false;
    for (let at = real(path); ; at = dirname(at)) {
      if (this.#granted.has(at)) return true;
      if (dirname(at) === at) return false;
    }
  }

  /**
   * Throws for the first path not handed over (with `exact`, not handed over itself: a folder chosen for
   * its models does not hand over every text file in it). The same answer whether or not the file exists,
   * so the page cannot learn which paths do.
   */
  check(paths: readonly string[], exact = false): void {
    const refused = paths.find((path) => !this.allows(path, exact));
    if (refused !== undefined) {
      throw new HostError('INVALID_INPUT', `PrintDesk was not given ${basename(refused)}: choose it with a file dialog, drop it on the window, or open it with PrintDesk.`);
    }
  }
}

/** The path with its links followed, or as given when it does not exist (reading it will say so). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
