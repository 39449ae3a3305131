import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { authenticator } from 'otplib';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { collectCspViolations, DESKTOP, launchChromium } from '@shared/testing';
// The browser tests boot panel-api exactly as its e2e tests do (the harness and the Telegram
// simulator live with panel-api's tests); a web app's tests may reach into the service it belongs to.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from '../../panel-api/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TelegramSimulator } from '../../panel-api/test/telegram-simulator';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TELEGRAM_GATEWAY } from '../../panel-api/src/app/telegram/telegram-gateway';

const root = join(__dirname, '../../..');
export const WEB_ROOT = join(root, 'dist/apps/panel-web');
export { TEST_ADMIN_PASSWORD };
// eslint-disable-next-line @nx/enforce-module-boundaries
export { animationsSettled, DESKTOP, PHONE, SCREENSHOTS, screenshot, scrollsSideways, seriousAxeViolations, waitInPage, type AxeViolation } from '@shared/testing';


export interface WebPanel {
  panel: RunningPanel;
  telegram: TelegramSimulator;
  browser: Browser;
  close: () => Promise<void>;
}

/** panel-api (SQLite, simulator, built web app) plus a headless Chromium. */
export async function startWebPanel(env: Record<string, string> = {}): Promise<WebPanel> {
  readFileSync(join(WEB_ROOT, 'index.html')); // fails early when the web app is not built
  const telegram = new TelegramSimulator();
  const panel = await startPanel({
    env: { MSGR_SESSION_MODE: 'string', ...env },
    overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    webRoot: WEB_ROOT,
  });
  const browser = await launchChromium();
  return {
    panel,
    telegram,
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      await panel.close();
    },
  };
}

/** CSP violations of the pages the current test opened (newPage collects them; checked after each test). */
const cspViolations: string[] = [];

afterEach(() => {
  // Every page of every test runs under the served Content-Security-Policy, and none may break it.
  expect(cspViolations.splice(0)).toEqual([]);
});

export async function newPage(web: WebPanel, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await web.browser.newContext({ viewport, baseURL: web.panel.url, acceptDownloads: true, serviceWorkers: 'block' });
  await collectCspViolations(context, cspViolations);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.setDefaultTimeout(20_000);
  return { context, page, errors };
}

const usedTotpSteps = new Set<number>();

/**
 * A TOTP code the service has not seen yet: the service refuses a code once used and accepts one
 * step either side, so each login takes a step of that window no earlier call has used.
 */
export function freshTotpCode(secret: string): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = [now, now + 1, now - 1].find((candidate) => !usedTotpSteps.has(candidate));
  if (step === undefined) throw new Error('every TOTP step of the current window is used; wait 30 s');
  usedTotpSteps.add(step);
  return authenticator.clone({ epoch: step * 30_000 + 1000 }).generate(secret);
}

/** Logs in through the login page (with the TOTP code when a secret is given). */
export async function logIn(page: Page, options: { password?: string; totpSecret?: string; path?: string } = {}): Promise<void> {
  await page.goto(options.path ?? '/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel(/^Password/).fill(options.password ?? TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (options.totpSecret) {
    const code = page.getByLabel('Authenticator code');
    await code.waitFor();
    await code.fill(freshTotpCode(options.totpSecret));
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}




/**
 * Opens `path` logged in without the login page: the token comes from the API (one request from
 * the page's context) and is put where the web app keeps it, sessionStorage under `panel.token`
 * (apps/panel-web/src/auth/session.ts), before the app's scripts run, once per tab (a later log out
 * stays logged out). For tests about a page behind the login; the login page has its own tests
 * (foundations, profile, first-hour, dashboard), which log in through it as a person does.
 */
export async function openLoggedIn(web: WebPanel, page: Page, path: string): Promise<void> {
  const response = await page.context().request.post(`${web.panel.url}/api/auth/login`, { data: { username: 'admin', password: TEST_ADMIN_PASSWORD } });
  if (response.status() !== 200) throw new Error(`login through the API failed: ${response.status()} ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  await page.addInitScript(
    ({ token, origin }) => {
      if (location.origin !== origin || sessionStorage.getItem('test.logged-in')) return;
      sessionStorage.setItem('test.logged-in', '1');
      sessionStorage.setItem('panel.token', token);
    },
    { token, origin: new URL(web.panel.url).origin },
  );
  await page.goto(path);
}

/** Enables TOTP for the admin through the API and returns the secret. */
export async function enableTotp(panel: RunningPanel): Promise<string> {
  const token = await loginAsAdmin(panel);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const setup = (await (await fetch(`${panel.url}/api/auth/totp/setup`, { method: 'POST', headers, body: JSON.stringify({ current_password: TEST_ADMIN_PASSWORD }) })).json()) as { secret: string };
  const enable = await fetch(`${panel.url}/api/auth/totp/enable`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ code: freshTotpCode(setup.secret), current_password: TEST_ADMIN_PASSWORD }),
  });
  if (!enable.ok) throw new Error(`enabling TOTP failed: ${enable.status} ${await enable.text()}`);
  return setup.secret;
}
