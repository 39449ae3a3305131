// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin } from '../../panel-api/test/harness';
import { Page } from 'playwright-core';
import { DESKTOP, newPage, openLoggedIn, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, waitInPage, WebPanel } from './support';

/**
 * Accounts against the real panel-api and the Telegram simulator: add by QR (a code replaced before
 * it expires, then the 2FA password) and by phone code (on a phone), check all, edit, devices
 * (terminate with confirm; the panel's own session cannot be), official messages, delete.
 */
describe('panel-web: accounts', () => {
  let web: WebPanel;

  beforeAll(async () => {
    web = await startWebPanel();
    // The add dialog asks for the Telegram API credentials first (the simulator needs none, a real login does).
    const token = await loginAsAdmin(web.panel);
    const saved = await fetch(`${web.panel.url}/api/config/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ telegram_api_id: 12345, telegram_api_hash: '0123456789abcdef0123456789abcdef' }),
    });
    expect(saved.status).toBe(200);
  });

  afterAll(async () => {
    await web?.close();
  });

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
  }

  it('adds an account by QR: a fresh code before expiry, the 2FA step, and the card', async () => {
    const ada = web.telegram.createUser({ phone: '+31 600 000 101', firstName: 'Ada', username: 'ada', password: 'lovelace', passwordHint: 'engine' });
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/accounts');
    await page.waitForURL(/\/accounts$/);
    await page.getByRole('heading', { name: 'No accounts yet' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'accounts-empty');

    await page.getByRole('button', { name: 'Add account' }).click();
    await page.getByRole('menuitem', { name: 'QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a Telegram account' });
    await dialog.getByRole('tab', { name: 'QR code', selected: true }).waitFor();
    await dialog.getByLabel(/^Account name/).fill('ada');
    const firstStart = page.waitForResponse((response) => response.url().endsWith('/api/accounts/qr-login/start'));
    await dialog.getByRole('button', { name: 'Show QR code' }).click();
    const first = (await (await firstStart).json()) as { login_id: string; expires_at: string };
    await dialog.getByRole('img', { name: 'QR code to log in with Telegram' }).waitFor();
    await dialog.getByText(/This code expires in \d+ s/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'accounts-qr');

    // The simulator's codes live 30 s: a new one replaces the first about 5 s before it expires,
    // and the first is cancelled at the service.
    const cancelFirst = page.waitForRequest((request) => request.method() === 'DELETE' && request.url().endsWith(`/api/accounts/qr-login/${first.login_id}`), { timeout: 45_000 });
    const secondStart = page.waitForResponse((response) => response.url().endsWith('/api/accounts/qr-login/start'), { timeout: 45_000 });
    const second = (await (await secondStart).json()) as { login_id: string; expires_at: string };
    await cancelFirst;
    expect(second.login_id).not.toBe(first.login_id);
    expect(Date.parse(first.expires_at) - Date.now()).toBeGreaterThan(0); // replaced before it expired
    expect(Date.parse(second.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));

    web.telegram.scanQr(second.login_id, ada.id, { confirm: true });
    const password = dialog.getByLabel(/^Two-step verification password/);
    await password.waitFor();
    await dialog.getByText('Hint: engine').waitFor();
    await password.fill('wrong');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'PASSWORD_HASH_INVALID' }).waitFor();
    await expectAccessible(page);
    await password.fill('lovelace');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Account ada added').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByRole('listitem', { name: 'ada' });
    await card.getByText('Working', { exact: true }).waitFor();
    await card.getByText('Ada · @ada').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds an account by phone code on a phone screen, with the code hint and the 2FA step', async () => {
    web.telegram.createUser({ phone: '+31 600 000 202', firstName: 'Bob', password: 'hunter2' });
    const { page, context, errors } = await newPage(web, PHONE);
    await openLoggedIn(web, page, '/accounts');
    await page.waitForURL(/\/accounts$/);
    await page.getByRole('listitem', { name: 'ada' }).waitFor();
    await page.getByRole('button', { name: 'Add account' }).click();
    await page.getByRole('menuitem', { name: 'Phone code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a Telegram account' });
    await dialog.getByLabel(/^Account name/).fill('bob');
    await dialog.getByLabel(/^Phone number/).fill('+31600000202');
    await expectAccessible(page);
    await screenshot(page, 'accounts-add-phone');
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const codeField = dialog.getByLabel(/^Login code/);
    await codeField.waitFor();
    await dialog.getByText(/The code has 5 or 6 digits and arrives in Telegram/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'accounts-code-phone');
    const code = web.telegram.lastLoginCode('+31600000202');
    expect(code).toMatch(/^\d{5}$/);
    await codeField.fill(code ?? '');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    const password = dialog.getByLabel(/^Two-step verification password/);
    await password.waitFor();
    await password.fill('hunter2');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Account bob added').waitFor();
    await page.getByRole('listitem', { name: 'bob' }).getByText('Working', { exact: true }).waitFor();
    await expectAccessible(page);
    await toastsGone(page);
    await screenshot(page, 'accounts-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('checks all, edits remark and proxy (showing the service’s 400), terminates a device, reads official messages, deletes an account', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/accounts');
    await page.waitForURL(/\/accounts$/);

    // Check all: the job's progress, then the result.
    await page.getByRole('button', { name: 'Check all' }).click();
    await page.getByText('Check finished: 2 working, 0 with problems').waitFor();
    await page.getByRole('region', { name: 'Check of all accounts' }).getByText('Checked 2 accounts').waitFor();

    // Edit: a proxy without its port is named on its field as it is typed, by the service's own rule.
    await page.getByRole('button', { name: 'Edit ada' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit ada' });
    await edit.getByLabel(/^Remark/).fill('main <b>account</b>');
    await edit.getByLabel(/^Proxy/).fill('socks5://127.0.0.1');
    await edit.getByText('Add the proxy port after the host', { exact: false }).waitFor();
    await expectAccessible(page);
    await edit.getByLabel(/^Proxy/).fill('socks5://user:secret@127.0.0.1:1080');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('ada saved').waitFor();
    const card = page.getByRole('listitem', { name: 'ada' });
    await card.getByText('Remark: main <b>account</b>').waitFor();
    await card.getByText('Proxy: socks5://user:***@127.0.0.1:1080').waitFor();
    expect(await card.locator('b').count()).toBe(0);

    // Devices: the panel's own session cannot be terminated; another one can, after a confirm.
    const adaId = (await (await page.request.get('/api/accounts/ada', { headers: await authHeader(page) })).json()).user.id as string;
    web.telegram.issueSession(adaId, { deviceModel: 'iPhone 15', platform: 'iOS', appName: 'Telegram iOS', appVersion: '11.2', officialApp: true });
    web.telegram.addOfficialMessage(adaId, 'New login from <script>alert(1)</script> in Amsterdam');
    await card.getByRole('button', { name: 'Devices of ada' }).click();
    const drawer = page.getByRole('dialog', { name: 'Devices of ada' });
    const current = drawer.getByRole('listitem').filter({ hasText: 'This panel' });
    await current.waitFor();
    expect(await current.getByRole('button', { name: /^Terminate/ }).isDisabled()).toBe(true);
    await current.getByText('This is the session the panel uses; it cannot be terminated here.').waitFor();
    const phone = drawer.getByRole('listitem').filter({ hasText: 'iPhone 15' });
    await phone.getByText('Official app').waitFor();
    await expectAccessible(page);
    await toastsGone(page);
    await screenshot(page, 'accounts-devices');
    await phone.getByRole('button', { name: /^Terminate iPhone 15/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Terminate this session?' });
    await confirm.getByText(/iPhone 15 · iOS/).waitFor();
    await confirm.getByRole('button', { name: 'Terminate' }).click();
    await page.getByText('iPhone 15 · iOS · 6.1 logged out', { exact: true }).waitFor();
    await phone.waitFor({ state: 'detached' });
    expect(web.telegram.authorizationHashes(adaId)).toHaveLength(1); // only the panel's own session is left

    await drawer.getByRole('tab', { name: 'Official messages' }).click();
    await drawer.getByText('New login from <script>alert(1)</script> in Amsterdam').waitFor();
    expect(await drawer.locator('script').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'accounts-official-messages');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await toastsGone(page);
    await screenshot(page, 'accounts-desktop');

    // Delete, after a confirm that can be declined.
    await page.getByRole('button', { name: 'Delete bob' }).click();
    await page.getByRole('dialog', { name: 'Delete bob?' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('listitem', { name: 'bob' }).waitFor();
    await page.getByRole('button', { name: 'Delete bob' }).click();
    await page.getByRole('dialog', { name: 'Delete bob?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('bob deleted').waitFor();
    await page.getByRole('listitem', { name: 'bob' }).waitFor({ state: 'detached' });
    expect((await page.request.get('/api/accounts/bob', { headers: await authHeader(page) })).status()).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The page's own bearer token (from sessionStorage), for a direct API read in an assertion. */
async function authHeader(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(() => sessionStorage.getItem('panel.token') ?? '');
  return { authorization: `Bearer ${token}` };
}

/** Screenshots without the toasts of earlier steps over the page (they close after 4-8 s). */
async function toastsGone(page: Page): Promise<void> {
  await waitInPage(page, "document.querySelectorAll('.mantine-Notification-root').length === 0", undefined, 20_000);
}
