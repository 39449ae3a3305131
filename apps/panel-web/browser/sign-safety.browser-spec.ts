// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin } from '../../panel-api/test/harness';
import { Page } from 'playwright-core';
import { animationsSettled, DESKTOP, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

/**
 * Issue 35 in the browser: a new task started from a recipe (its answer patterns filled in), the
 * patterns saved with the task and shown again when editing it, and an account's safety budget
 * with a FloodWait pause and Resume.
 */
describe('panel-web: verdict patterns, recipes and the safety budget', () => {
  let web: WebPanel;
  let token: string;

  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${web.panel.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  beforeAll(async () => {
    web = await startWebPanel();
    token = await loginAsAdmin(web.panel);
    const ada = web.telegram.createUser({ phone: '+31 600 000 351', firstName: 'Ada' });
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'ada', session_string: web.telegram.issueSession(ada.id) } })).status).toBe(201);
    web.telegram.addBot({ username: 'sign_ok_bot', onMessage: () => ({ text: '签到成功' }) });
  });

  afterAll(async () => {
    await web?.close();
  });

  async function expectAccessible(page: Page): Promise<void> {
    // A drawer or dialog fading in has its colours mid-fade: axe looks once the transitions end.
    await animationsSettled(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
  }

  it('starts a task from a recipe with its patterns, saves them and shows them again (desktop and phone)', async () => {
    for (const [viewport, name, shot] of [
      [DESKTOP, 'from recipe', 'desktop'],
      [PHONE, 'from recipe on a phone', 'phone'],
    ] as const) {
      const { page, context, errors } = await newPage(web, viewport);
      await logIn(page, { path: '/login?next=%2Ftasks%2Fnew' });
      await page.waitForURL(/\/tasks\/new$/);
      await page.locator('option', { hasText: 'Send a command' }).waitFor({ state: 'attached' });
      await page.getByLabel('Start from a recipe').selectOption({ label: 'Send a command' });
      await page.getByLabel(/^Name/).fill(name);
      await page.getByRole('combobox', { name: 'Accounts' }).click();
      await page.getByRole('option', { name: 'ada' }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('listbox').waitFor({ state: 'detached' }).catch(() => undefined);
      await expectAccessible(page);
      await screenshot(page, `tasks-recipe-${shot}`);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      // The chats step holds the recipe's chat with its answer patterns.
      const success = page.getByLabel('Success', { exact: true });
      await success.waitFor();
      expect(await success.inputValue()).toContain('签到成功');
      expect(await page.getByLabel('Already done today').inputValue()).toContain('今日已签');
      await page.getByRole('textbox', { name: /^Chat/ }).fill('@sign_ok_bot');
      await success.fill('签到成功\n/check.?in ok/');
      await expectAccessible(page);
      await screenshot(page, `tasks-verdict-${shot}`);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('button', { name: 'Save task' }).click();
      await page.waitForURL(/\/tasks$/);
      const stored = (await (await api(`/api/sign-tasks/${encodeURIComponent(name)}`)).json()) as { chats: Array<{ chat_id: string; verdict: { success: unknown[] } }> };
      expect(stored.chats[0].chat_id).toBe('@sign_ok_bot');
      expect(stored.chats[0].verdict.success).toEqual([
        { mode: 'contains', pattern: '签到成功' },
        { mode: 'regex', pattern: 'check.?in ok' },
      ]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('shows the safety budget, a FloodWait pause and resumes the account', async () => {
    web.telegram.floodWaitNext(900, { accountName: 'ada', method: 'sendMessage' });
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: { name: 'flood', account_name: 'ada', sign_at: '0 8 * * *', execution_mode: 'fixed', retry_count: 0, chats: [{ chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/sign' }] }] },
    });
    expect(created.status).toBe(201);
    expect((await api('/api/sign-tasks/flood/run', { method: 'POST', body: {} })).status).toBe(202);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !((await (await api('/api/accounts/ada/safety')).json()) as { paused: boolean }).paused) await new Promise((resolve) => setTimeout(resolve, 100));

    for (const viewport of [DESKTOP, PHONE]) {
      const { page, context, errors } = await newPage(web, viewport);
      await logIn(page, { path: '/login?next=%2Faccounts' });
      await page.waitForURL(/\/accounts$/);
      await page.getByRole('button', { name: 'Safety budget of ada' }).click();
      const drawer = page.getByRole('dialog', { name: 'Safety budget of ada' });
      await drawer.getByText('Automation paused').waitFor();
      await drawer.getByText(/FloodWait of 900 s on sendMessage/).waitFor();
      await drawer.getByRole('cell', { name: '900' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `accounts-safety-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      if (viewport === PHONE) {
        await drawer.getByRole('button', { name: 'Resume' }).click();
        await drawer.getByText('Automation running').waitFor();
        // The toast that says so comes after the drawer changed (its module loads on first use) and
        // fades in: axe looks once it is there and its transition has ended, not at a blend of it.
        await page.getByText('The automation of ada runs again').waitFor();
        await expectAccessible(page);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(((await (await api('/api/accounts/ada/safety')).json()) as { paused: boolean }).paused).toBe(false);
  });
});
