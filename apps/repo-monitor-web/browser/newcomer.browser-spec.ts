import type { Page } from 'playwright-core';
import { DESKTOP, INBOUND_SECRET, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, sendDelivery, startWebMonitor, WebMonitor } from './support';

const FIRST_ADMIN = { username: 'newcomer', password: 'a-long-first-password' };

/**
 * Words a person must never read: errno codes, API field names and error codes (snake_case), JSON
 * paths. Environment variable names (MONITOR_…) and GitHub's event names in a list are not among them.
 */
const RAW_CODE = /\b(E[A-Z]{4,}|[a-z]+(?:_[a-z0-9]+)+|[a-z_]+\.\d+\.[a-z_]+)\b/g;
const ALLOWED = new Set(['application/json']);

async function rawCodesIn(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...new Set((text.match(RAW_CODE) ?? []).filter((word) => !ALLOWED.has(word)))];
}

/**
 * The newcomer's path on a fresh instance (issue 33): the first admin, the GitHub App page (webhook
 * secret), a notification channel tested, then a refused and an accepted delivery seen on the
 * Deliveries page with the reason and what to fix. Every page on the way speaks plain words.
 */
describe('repo-monitor console: a newcomer\u2019s first hour', () => {
  let web: WebMonitor;

  beforeAll(async () => {
    // A fresh instance: no admin and no inbound webhook secret yet (the App's id and key are set).
    web = await startWebMonitor({ admin: false, env: { MONITOR_VCS_WEBHOOK_SECRET: '' } });
  });

  afterAll(async () => {
    await web?.close();
  });

  it('goes from setup to a refused and an accepted delivery on the Deliveries page', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    const plain = async (name: string) => {
      expect({ page: name, codes: await rawCodesIn(page) }).toEqual({ page: name, codes: [] });
      expect(await seriousAxeViolations(page)).toEqual([]);
    };

    // Setup.
    await page.goto('/');
    await page.waitForURL(/\/setup$/);
    await page.getByLabel('User name').fill(FIRST_ADMIN.username);
    // A password below the rule is named on its field, in words, before anything is sent.
    await page.getByLabel(/^Password/).fill('short');
    await page.getByLabel('Repeat the password').fill('short');
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByText('Use 12 to 256 characters.').waitFor();
    await plain('setup, short password');
    await screenshot(page, 'monitor-setup-field-error');
    await page.getByLabel(/^Password/).fill(FIRST_ADMIN.password);
    await page.getByLabel('Repeat the password').fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.waitForURL(/\/dashboard$/);

    // GitHub sends its first delivery before the secret is set here: refused, and kept for the page.
    const early = await sendDelivery(web.monitor.url, 'ping', { zen: 'Design for failure.' }, { deliveryId: 'first-ping' });
    expect(early.status).toBe(503);

    // The GitHub App page, found in the grouped navigation: the webhook secret.
    await page.getByRole('group', { name: 'Integrations' }).getByRole('link', { name: 'GitHub App' }).click();
    await page.waitForURL(/\/github-app$/);
    const secret = page.getByLabel('Webhook secret');
    await secret.fill(INBOUND_SECRET);
    await page.getByRole('form', { name: 'App credentials' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('GitHub App settings saved; they apply now').waitFor();
    await plain('github-app');

    // A channel, tested.
    await page.getByRole('group', { name: 'Delivery' }).getByRole('link', { name: 'Notification channels' }).click();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New channel' });
    await dialog.getByRole('combobox', { name: /^Kind/ }).selectOption('http_webhook');
    await dialog.getByLabel(/^Name/).fill('My receiver');
    await dialog.getByLabel(/^Receiver URL/).fill(web.webhooks.urlFor('/newcomer'));
    await dialog.getByRole('checkbox', { name: 'Allow private targets' }).check();
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    const once = page.getByRole('dialog', { name: 'Signing secret of My receiver' });
    await once.getByRole('button', { name: 'I have stored it' }).click();
    await once.waitFor({ state: 'hidden' });
    const card = page.getByRole('article', { name: 'My receiver' });
    await card.getByRole('button', { name: 'Send test' }).click();
    await card.getByRole('status').getByText('Test delivered').waitFor();
    await plain('channels');

    // A delivery signed with another secret, then one signed right.
    expect((await sendDelivery(web.monitor.url, 'ping', { zen: 'x' }, { deliveryId: 'wrong-secret', secret: 'not-the-secret' })).status).toBe(401);
    expect((await sendDelivery(web.monitor.url, 'ping', { zen: 'Keep it logically awesome.' }, { deliveryId: 'good-ping' })).status).toBe(202);

    await page.getByRole('group', { name: 'Delivery' }).getByRole('link', { name: 'Webhook deliveries' }).click();
    await page.waitForURL(/\/deliveries$/);
    await page.getByText('good-ping').waitFor();
    await page.getByText('Processed').first().waitFor();
    await plain('deliveries-accepted');
    await screenshot(page, 'monitor-deliveries-accepted-desktop');

    await page.getByRole('tab', { name: 'Refused' }).click();
    await page.getByText('wrong-secret').waitFor();
    await page.getByRole('table').getByText('Signature does not match').waitFor();
    await page.getByText(/The secret in the GitHub App’s settings differs from the one here/).waitFor();
    await page.getByRole('table').getByText('No webhook secret set').waitFor();
    await page.getByText(/Set the webhook secret on the GitHub App page of this console/).waitFor();
    await plain('deliveries-refused');
    await screenshot(page, 'monitor-deliveries-refused-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the refused deliveries on a phone without sideways scrolling', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await page.goto('/login?next=%2Fdeliveries%3Fview%3Drejected');
    await page.getByLabel('Username').fill(FIRST_ADMIN.username);
    await page.getByLabel(/^Password/).fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/deliveries\?view=rejected$/);
    await page.getByText('wrong-secret').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await rawCodesIn(page)).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-deliveries-refused-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
