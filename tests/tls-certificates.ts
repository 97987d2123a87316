// A shop's own certificate authority and a server certificate it signed, made with openssl for a test: what
// a shop's administrator makes for a PostgreSQL on the shop's network, which no public authority signed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ShopCertificates {
  /** The authority's certificate (PEM): what the user chooses in Settings → Team. */
  authority: string;
  /** The server's certificate and key (PEM), made out to 127.0.0.1 and localhost. */
  certificate: string;
  key: string;
}

function openssl(dir: string, args: string[]): void {
  const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr || result.error}`);
}

/** `names`: what the server's certificate is made out to (subjectAltName entries). */
export function makeShopCertificates(names = 'IP:127.0.0.1,DNS:localhost'): ShopCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-tls-'));
  try {
    const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(dir, ['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '3', '-subj', '/CN=PrintDesk Test Shop CA']);
    openssl(dir, ['req', ...key, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=shop database']);
    writeFileSync(join(dir, 'names.ext'), `subjectAltName=${names}\n`);
    openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '3', '-extfile', 'names.ext']);
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    return { authority: read('ca.crt'), certificate: read('server.crt'), key: read('server.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
