#!/usr/bin/env node
// repo-monitor's console: gzip size of the JavaScript the login page and the dashboard load, and
// Lighthouse scores of the dashboard (signed in), with the local Chromium. Build first:
// `npx nx build repo-monitor` (it builds the console into dist/apps/repo-monitor/web). Starts
// dist/apps/repo-monitor/main.js on a temporary SQLite database. The same measurement as
// tools/bench/panel-web.mjs.
// Targets: ≤ 200 KB gzip of JS per page; Lighthouse performance ≥ 90, accessibility ≥ 95.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, kb, lighthouseSignedIn, measureScripts, root, startService } from './web-app-common.mjs';

const password = 'bench-password-123';
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const data = mkdtempSync(join(tmpdir(), 'monitor-web-bench-'));
const service = await startService({
  name: 'repo-monitor',
  args: [join(root, 'dist/apps/repo-monitor/main.js'), 'serve'],
  env: {
    PATH: process.env.PATH ?? '',
    MONITOR_HTTP_ADDR: `127.0.0.1:${port}`,
    MONITOR_DATABASE_URL: `file:${join(data, 'repo-monitor.db')}`,
    MONITOR_ADMIN_USERNAME: 'admin',
    MONITOR_ADMIN_PASSWORD: password,
    MONITOR_LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  },
  base,
});
try {
  await measureScripts(async ({ page, total, scripts }) => {
    await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    const login = total();
    const loginFiles = scripts.size;
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByText('Open issues').waitFor();
    await page.waitForLoadState('networkidle');
    const dashboard = total();
    console.log(`login:     ${kb(login.gzip)} gzip JS (${kb(login.raw)} raw) in ${loginFiles} file(s)`);
    console.log(`dashboard: ${kb(dashboard.gzip)} gzip JS (${kb(dashboard.raw)} raw) in ${scripts.size} file(s), login included (target 200 KB)`);
  });
  await lighthouseSignedIn({ base, path: '/dashboard', password });
} finally {
  await service.stop();
  rmSync(data, { recursive: true, force: true });
}
