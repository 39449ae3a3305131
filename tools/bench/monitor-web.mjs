#!/usr/bin/env node
// repo-monitor's console: gzip size of the JavaScript the login page and the dashboard load, and
// Lighthouse scores of the dashboard (signed in), with the local Chromium. Build first:
// `npx nx build repo-monitor` (it builds the console into dist/apps/repo-monitor/web). Starts
// dist/apps/repo-monitor/main.js on a temporary SQLite database. The same measurement as
// tools/bench/panel-web.mjs.
// Targets: ≤ 200 KB gzip of JS per page; Lighthouse performance ≥ 90, accessibility ≥ 95.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const password = 'bench-password-123';
const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const address = server.address();
    server.close(() => resolve(address.port));
  });
});
const data = mkdtempSync(join(tmpdir(), 'monitor-web-bench-'));
const child = spawn(process.execPath, [join(root, 'dist/apps/repo-monitor/main.js'), 'serve'], {
  env: {
    PATH: process.env.PATH ?? '',
    MONITOR_HTTP_ADDR: `127.0.0.1:${port}`,
    MONITOR_DATABASE_URL: `file:${join(data, 'repo-monitor.db')}`,
    MONITOR_ADMIN_USERNAME: 'admin',
    MONITOR_ADMIN_PASSWORD: password,
    MONITOR_LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 240) throw new Error('repo-monitor did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  // 1. JavaScript per page, measured as the browser loads it.
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromeFlags });
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const scripts = new Map();
  page.on('response', async (response) => {
    if ((response.headers()['content-type'] ?? '').includes('javascript')) {
      const body = await response.body().catch(() => Buffer.alloc(0));
      scripts.set(new URL(response.url()).pathname, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
  });
  const total = () => [...scripts.values()].reduce((sum, entry) => ({ raw: sum.raw + entry.raw, gzip: sum.gzip + entry.gzip }), { raw: 0, gzip: 0 });
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  const login = total();
  const loginFiles = [...scripts.keys()];
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard$/);
  await page.getByText('Open issues').waitFor();
  await page.waitForLoadState('networkidle');
  const dashboard = total();
  console.log(`login:     ${kb(login.gzip)} gzip JS (${kb(login.raw)} raw) in ${loginFiles.length} file(s)`);
  console.log(`dashboard: ${kb(dashboard.gzip)} gzip JS (${kb(dashboard.raw)} raw) in ${scripts.size} file(s), login included (target 200 KB)`);
  await browser.close();

  // 2. Lighthouse on the dashboard, signed in (the session cookie and the CSRF token in localStorage
  //    stay with the tab: Lighthouse drives the same tab after the sign-in, without resetting storage).
  const { launch } = require('chrome-launcher');
  const puppeteer = require('puppeteer-core');
  const lighthouse = (await import('lighthouse')).default;
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags });
  try {
    const remote = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const tab = await remote.newPage();
    await tab.goto(`${base}/login`, { waitUntil: 'networkidle0' });
    await tab.type('input[autocomplete="username"]', 'admin');
    await tab.type('input[autocomplete="current-password"]', password);
    await Promise.all([tab.waitForFunction(() => location.pathname === '/dashboard'), tab.click('button[type="submit"]')]);
    // Lighthouse's own presets: "desktop" (desktop-config: 40 ms RTT, 10 Mbit/s, no CPU slow-down) and
    // "mobile" (the default: slow 4G, 150 ms RTT, 1.6 Mbit/s, 4x CPU slow-down, phone screen).
    const desktopConfig = (await import('lighthouse/core/config/desktop-config.js')).default;
    const presets = [
      ['desktop', desktopConfig],
      ['mobile', undefined],
    ];
    for (const [name, config] of presets) {
      const result = await lighthouse(`${base}/dashboard`, { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance', 'accessibility'] }, config, tab);
      const categories = result.lhr.categories;
      const audits = result.lhr.audits;
      console.log(
        `lighthouse dashboard (${name} preset): performance ${Math.round(categories.performance.score * 100)}, accessibility ${Math.round(categories.accessibility.score * 100)}; FCP ${audits['first-contentful-paint'].displayValue}, LCP ${audits['largest-contentful-paint'].displayValue}, TBT ${audits['total-blocking-time'].displayValue}, CLS ${audits['cumulative-layout-shift'].displayValue}, Speed Index ${audits['speed-index'].displayValue}`,
      );
      const longTasks = audits['long-tasks']?.details?.items ?? [];
      if (longTasks.length) console.log(`  long tasks: ${longTasks.slice(0, 5).map((task) => `${Math.round(task.duration)} ms ${String(task.url).replace(base, '')}`).join(', ')}`);
      const failed = Object.values(audits).filter((audit) => audit.score !== null && audit.score < 1 && categories.accessibility.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0));
      if (failed.length) console.log(`  accessibility audits not passed: ${failed.map((audit) => audit.id).join(', ')}`);
    }
    await remote.disconnect();
  } finally {
    await chrome.kill();
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(data, { recursive: true, force: true });
}
