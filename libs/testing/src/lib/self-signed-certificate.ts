import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir';

/**
 * A throw-away self-signed certificate (RSA 2048, one day) for the given DNS names and 127.0.0.1,
 * made with the `openssl` command. The certificate is its own CA: trust `cert` to accept it.
 */
export function createSelfSignedCertificate(hostnames: string[]): { key: string; cert: string } {
  const dir = tempDir('cert-');
  try {
    const keyPath = join(dir.path, 'key.pem');
    const certPath = join(dir.path, 'cert.pem');
    const names = [...hostnames.map((name) => `DNS:${name}`), 'IP:127.0.0.1'].join(',');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', `/CN=${hostnames[0] ?? 'localhost'}`, '-addext', `subjectAltName=${names}`],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
  } finally {
    dir.remove();
  }
}
