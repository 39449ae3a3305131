#!/usr/bin/env node
// panel-web: gzip size of the JavaScript the login page and the dashboard load, and Lighthouse
// scores of the dashboard (logged in), with the local Chromium. Build first: `npx nx build panel-api`
// (it builds the web app into dist/apps/panel-api/web). Starts dist/apps/panel-api/main.js on a
// temporary SQLite data directory. (Before 2026-11-25 this script ran a desktop screen with the
// mobile network and CPU throttling and called it desktop.)
// Targets: ≤ 200 KB gzip of JS per page; Lighthouse performance ≥ 90, accessibility ≥ 95.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, kb, lighthouseSignedIn, measureScripts, root, startService } from './web-app-common.mjs';

const password = 'bench-password-123';
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const data = mkdtempSync(join(tmpdir(), 'panel-web-bench-'));
const service = await startService({
  name: 'panel-api',
  args: [join(root, 'dist/apps/panel-api/main.js')],
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_DATA_DIR: data, ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  base,
});
try {
  await measureScripts(async ({ page, total, scripts }) => {
    await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    const login = total();
    const loginFiles = scripts.size;
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByText('Successes today').waitFor();
    await page.locator('figure svg').first().waitFor();
    await page.waitForLoadState('networkidle');
    const dashboard = total();
    const chart = [...scripts.entries()].filter(([path]) => path.includes('sign-chart')).reduce((sum, [, entry]) => sum + entry.gzip, 0);
    console.log(`login:     ${kb(login.gzip)} gzip JS (${kb(login.raw)} raw) in ${loginFiles} file(s)`);
    console.log(`dashboard: ${kb(dashboard.gzip)} gzip JS (${kb(dashboard.raw)} raw) in ${scripts.size} file(s), of which the lazily loaded chart ${kb(chart)}; before the chart: ${kb(dashboard.gzip - chart)}`);
  });
  await lighthouseSignedIn({ base, path: '/dashboard', password });
} finally {
  await service.stop();
  rmSync(data, { recursive: true, force: true });
}
