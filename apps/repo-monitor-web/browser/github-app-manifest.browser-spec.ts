// eslint-disable-next-line @nx/enforce-module-boundaries
import { generateGitHubAppKeyPair, LocalGitHubApi } from '@shared/testing';
import { Browser, chromium } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from '../../repo-monitor/test/harness';
import { screenshot, seriousAxeViolations, signIn, watchCsp, WEB_ROOT } from './support';

const APP_ID = 6262;

/**
 * "Create GitHub App" against the local GitHub stand-in: no App field comes from the environment,
 * the console posts the manifest to GitHub's new-App page, GitHub's confirm button sends the browser
 * back through the service's callback, and the page shows the App created with its fields filled.
 */
describe('repo-monitor console: GitHub App created through the manifest flow', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({
    appId: APP_ID,
    publicKey: keys.publicKey,
    clientId: 'Iv1.browser0001',
    appSlug: 'repo-monitor-browser',
    manifestFlow: { privateKey: keys.privateKey, webhookSecret: 'manifest-webhook-secret-0123456789', clientSecret: 'manifest-client-secret-0123456789' },
  });
  let monitor: RunningMonitor;
  let browser: Browser;

  beforeAll(async () => {
    await github.start();
    monitor = await startMonitor({
      webRoot: WEB_ROOT,
      env: { ...TEST_ADMIN_ENV, MONITOR_LOG_LEVEL: 'error', MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_VCS_API_URL: github.url, MONITOR_VCS_WEB_URL: github.url },
    });
    browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await monitor?.close();
    await github.close();
  });

  it('creates the App in one click and shows it configured', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: monitor.url });
    await watchCsp(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, { path: '/login?next=%2Fgithub-app' });
    await page.getByRole('heading', { name: 'Create the App on GitHub' }).waitFor();
    // GitHub sends webhooks and the browser back to the public base URL: it is set (and saved) first.
    expect(await page.getByRole('button', { name: 'Create GitHub App' }).isDisabled()).toBe(true);
    await page.getByLabel(/^Public base URL/).fill(monitor.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('GitHub App settings saved; they apply now').waitFor();
    await page.getByText(`${monitor.url}/webhooks/github`).waitFor();
    await page.getByLabel(/^App name/).fill('acme-monitor');
    await page.getByRole('button', { name: 'Create GitHub App' }).click();
    // GitHub's page (the stand-in): it shows the posted manifest and asks to confirm.
    await page.waitForURL((url) => url.href.startsWith(github.url));
    await page.getByText('acme-monitor').waitFor();
    await page.getByRole('button', { name: /^Create GitHub App for / }).click();
    await page.waitForURL(/\/github-app\?manifest=created/);
    await page.getByText('GitHub App created').waitFor();
    await page.getByText('Configured', { exact: true }).waitFor();
    expect(await page.getByLabel('App id').inputValue()).toBe(String(APP_ID));
    expect(await page.getByLabel('Client id').inputValue()).toBe('Iv1.browser0001');
    expect(github.manifestSubmissions).toHaveLength(1);
    expect(github.manifestSubmissions[0]?.manifest['name']).toBe('acme-monitor');
    await page.getByText('GitHub created repo-monitor-browser and its credentials are saved.', { exact: false }).waitFor();
    // A link someone sends with text of their own in app_slug: the notice names the stored App only.
    await page.goto('/github-app?manifest=created&app_slug=Your%20account%20is%20locked%2C%20call%20%2B1-555-0100');
    await page.getByText('GitHub created repo-monitor-browser and its credentials are saved.', { exact: false }).waitFor();
    expect(await page.getByText(/555-0100|account is locked/).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-github-app-created-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });
});
