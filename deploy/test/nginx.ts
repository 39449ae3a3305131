// Shared by the deploy tests that run the real nginx.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function nginxBinary(): string {
  const installed = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
  if (installed) return installed;
  // A missing nginx is installed from Debian/Ubuntu, never skipped: directly as root (the dev
  // machines), through passwordless sudo otherwise (hosted CI runners).
  const aptGet = (args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('apt-get', args, { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      : execFileSync('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], { stdio: 'ignore' });
  aptGet(['update']);
  aptGet(['install', '-y', '--no-install-recommends', 'nginx']);
  const path = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate));
  if (!path) throw new Error('apt-get install nginx did not provide an nginx binary');
  return path;
}
