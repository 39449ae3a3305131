// The browser tests boot repo-monitor exactly as its e2e tests do, with the same local stand-ins
// (libs/testing) and the harness and signed webhook helpers of repo-monitor's tests: a web app's
// tests (not its code) may reach into its service and the test library.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { collectCspViolations, DESKTOP, generateGitHubAppKeyPair, launchChromium, LocalGitHubApi, LocalTelegramBotApi, LocalWebhookReceiver, tempDir, waitFor } from '@shared/testing';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from '../../repo-monitor/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { INBOUND_SECRET, installationCreated, issueEvent, sendDelivery } from '../../repo-monitor/test/github-fixtures';

const root = join(__dirname, '../../..');
export const WEB_ROOT = join(root, 'dist/apps/repo-monitor-web');
export { INBOUND_SECRET, installationCreated, issueEvent, sendDelivery, TEST_ADMIN_ENV, waitFor };
// eslint-disable-next-line @nx/enforce-module-boundaries
export { DESKTOP, PHONE, SCREENSHOTS, screenshot, scrollsSideways, seriousAxeViolations, waitInPage, type AxeViolation } from '@shared/testing';
export const ADMIN_USERNAME = TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'] as string;
export const ADMIN_PASSWORD = TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] as string;


/**
 * A host name the browser resolves to 127.0.0.1 (Chromium's host resolver rules): requests to it
 * come from loopback but name a non-loopback Host, as a browser on another machine would.
 */
export const REMOTE_HOST = 'monitor.example';

export const APP_ID = 5151;
export const INSTALLATION_ID = 88;
export const CHAT_ID = '6160';

export interface WebMonitor {
  monitor: RunningMonitor;
  github: LocalGitHubApi;
  telegram: LocalTelegramBotApi;
  webhooks: LocalWebhookReceiver;
  browser: Browser;
  /** The console as a browser on another machine reaches it (see REMOTE_HOST). */
  remoteUrl: string;
  close: () => Promise<void>;
}

export interface StartWebMonitorOptions {
  /** Create the admin from the environment (ADMIN_USERNAME / ADMIN_PASSWORD); without it the console starts at setup. */
  admin?: boolean;
  env?: Record<string, string>;
  /** A personal access token the local GitHub accepts, given to the service as MONITOR_EXTERNAL_PAT (external repositories). */
  externalPat?: string;
}

/**
 * repo-monitor on SQLite serving the built console, wired to the local GitHub API (an App with
 * its key), the local Telegram Bot API and a local webhook receiver, plus a headless Chromium.
 */
export async function startWebMonitor(options: StartWebMonitorOptions = {}): Promise<WebMonitor> {
  readFileSync(join(WEB_ROOT, 'index.html')); // fails early when the console is not built
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: APP_ID, publicKey: keys.publicKey, ...(options.externalPat ? { personalAccessTokens: [options.externalPat] } : {}) });
  const telegram = new LocalTelegramBotApi();
  const webhooks = new LocalWebhookReceiver();
  await Promise.all([github.start(), telegram.start(), webhooks.start()]);
  const keyDir = tempDir('monitor-web-key-');
  const keyPath = join(keyDir.path, 'app.pem');
  writeFileSync(keyPath, keys.privateKey);
  const monitor = await startMonitor({
    webRoot: WEB_ROOT,
    env: {
      ...(options.admin === false ? {} : TEST_ADMIN_ENV),
      MONITOR_LOG_LEVEL: 'error',
      MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      MONITOR_VCS_APP_ID: String(APP_ID),
      MONITOR_VCS_PRIVATE_KEY_PATH: keyPath,
      MONITOR_VCS_API_URL: github.url,
      MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
      MONITOR_BOT_TOKEN: telegram.token,
      MONITOR_BOT_CHAT_ID: CHAT_ID,
      MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
      MONITOR_AGGREGATION_WINDOW: '0s',
      ...(options.externalPat ? { MONITOR_EXTERNAL_PAT: options.externalPat } : {}),
      ...(options.env ?? {}),
    },
  });
  const browser = await launchChromium([`--host-resolver-rules=MAP ${REMOTE_HOST} 127.0.0.1`]);
  return {
    monitor,
    github,
    telegram,
    webhooks,
    browser,
    remoteUrl: monitor.url.replace('127.0.0.1', REMOTE_HOST),
    close: async () => {
      await browser.close().catch(() => undefined);
      await monitor.close();
      await Promise.all([github.close(), telegram.close(), webhooks.close()]);
      keyDir.remove();
    },
  };
}

/** CSP violations of the pages the current test opened (newPage and watchCsp collect them; checked after each test). */
const cspViolations: string[] = [];

afterEach(() => {
  // Every page of every test runs under the served Content-Security-Policy, and none may break it.
  expect(cspViolations.splice(0)).toEqual([]);
});

/** Collects the CSP violations of a context a test made itself (see newPage). */
export function watchCsp(context: BrowserContext): Promise<void> {
  return collectCspViolations(context, cspViolations);
}

export async function newPage(web: WebMonitor, viewport = DESKTOP, baseURL = web.monitor.url): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await web.browser.newContext({ viewport, baseURL });
  await watchCsp(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.setDefaultTimeout(20_000);
  return { context, page, errors };
}

/**
 * Opens `path` signed in without the login page: the sign-in goes through the API from the page's
 * context (its cookie jar takes the HttpOnly session cookie) and the CSRF token is put where the
 * console keeps it, localStorage under `monitor.csrf` (apps/repo-monitor-web/src/auth/session.ts),
 * before the console's scripts run, once per tab (a later sign-out stays signed out). For tests
 * about a page behind the sign-in; the sign-in page has its own tests (setup-and-login, the
 * two-step sign-in of admin-pages, console-language, github-app-manifest), which use it as a person does.
 */
export async function openSignedIn(page: Page, path: string, baseUrl: string): Promise<void> {
  const response = await page.context().request.post(`${baseUrl}/api/v1/auth/login`, { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  if (response.status() !== 200) throw new Error(`sign-in through the API failed: ${response.status()} ${await response.text()}`);
  const { csrf_token: csrf } = (await response.json()) as { csrf_token: string };
  await page.addInitScript(
    ({ csrf, origin }) => {
      if (location.origin !== origin || sessionStorage.getItem('test.signed-in')) return;
      sessionStorage.setItem('test.signed-in', '1');
      localStorage.setItem('monitor.csrf', csrf);
    },
    { csrf, origin: new URL(baseUrl).origin },
  );
  await page.goto(path);
}

/** Signs in through the login page. */
export async function signIn(page: Page, options: { password?: string; path?: string } = {}): Promise<void> {
  await page.goto(options.path ?? '/login');
  await page.getByLabel('Username').fill(ADMIN_USERNAME);
  await page.getByLabel(/^Password/).fill(options.password ?? ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}



