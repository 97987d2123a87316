// A team store's certificate authority as the driver reads it: from a file (libpq's sslrootcert), read
// again at every new connection. Each certificate text has a file of its own, named by its contents, so
// that one tried in the form never replaces the one the store in use reconnects with.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, writePrivateFile } from '../private-files.ts';

export interface AuthorityFiles {
  /** The file that holds `pem`, written on first use. */
  pathFor(pem: string): string;
}

export function createAuthorityFiles(dir: string): AuthorityFiles {
  return {
    pathFor(pem) {
      const file = join(dir, `${createHash('sha256').update(pem).digest('hex').slice(0, 32)}.pem`);
      if (!existsSync(file)) {
        makePrivateDir(dir);
        writePrivateFile(file, pem);
      }
      return file;
    },
  };
}

/** The folder of a data folder's authorities. */
export const authoritiesDir = (userDataDir: string) => join(userDataDir, 'team-authorities');
