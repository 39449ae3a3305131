// What tools/bench/panel-web.mjs and monitor-web.mjs share: start a built service on a free port,
// count the JavaScript a page loads (gzip level 9, as the browser receives it uncompressed), and run
// Lighthouse's desktop and mobile presets on a signed-in page.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address.port));
    });
  });
}

/** Starts `node <args>` with `env` and resolves once `<base>/readyz` answers 200; `stop()` ends it. */
export async function startService({ name, args, env, base }) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { stop };
    } catch {
      /* not up yet */
    }
    if (i > 240) {
      await stop();
      throw new Error(`${name} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Opens Chromium (playwright-core) and hands `visit` a page plus `total()`, the JavaScript loaded so
 * far ({ raw, gzip } bytes) and `scripts`, every script's path with its sizes.
 */
export async function measureScripts(visit) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromeFlags });
  try {
    const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    const scripts = new Map();
    page.on('response', async (response) => {
      if ((response.headers()['content-type'] ?? '').includes('javascript')) {
        const body = await response.body().catch(() => Buffer.alloc(0));
        scripts.set(new URL(response.url()).pathname, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
      }
    });
    const total = () => [...scripts.values()].reduce((sum, entry) => ({ raw: sum.raw + entry.raw, gzip: sum.gzip + entry.gzip }), { raw: 0, gzip: 0 });
    await visit({ page, total, scripts });
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse (desktop and mobile presets) on `<base><path>` after signing in with `password` through
 * the login form. The session stays with the tab (sessionStorage or cookie and localStorage), so
 * Lighthouse drives that same tab without resetting storage.
 * Presets: "desktop" (40 ms RTT, 10 Mbit/s, no CPU slow-down) and "mobile" (Lighthouse's default:
 * slow 4G, 150 ms RTT, 1.6 Mbit/s, 4x CPU slow-down, phone screen).
 */
export async function lighthouseSignedIn({ base, path, password }) {
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
    await Promise.all([tab.waitForFunction((target) => location.pathname === target, {}, path), tab.click('button[type="submit"]')]);
    const desktopConfig = (await import('lighthouse/core/config/desktop-config.js')).default;
    for (const [name, config] of [
      ['desktop', desktopConfig],
      ['mobile', undefined],
    ]) {
      const result = await lighthouse(`${base}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance', 'accessibility'] }, config, tab);
      const categories = result.lhr.categories;
      const audits = result.lhr.audits;
      console.log(
        `lighthouse ${path} (${name} preset): performance ${Math.round(categories.performance.score * 100)}, accessibility ${Math.round(categories.accessibility.score * 100)}; FCP ${audits['first-contentful-paint'].displayValue}, LCP ${audits['largest-contentful-paint'].displayValue}, TBT ${audits['total-blocking-time'].displayValue}, CLS ${audits['cumulative-layout-shift'].displayValue}, Speed Index ${audits['speed-index'].displayValue}`,
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
}
