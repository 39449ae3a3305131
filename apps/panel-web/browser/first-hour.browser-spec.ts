// eslint-disable-next-line @nx/enforce-module-boundaries
import { LocalTelegramBotApi } from '@shared/testing';
import { Page } from 'playwright-core';
import { DESKTOP, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

const BOT_TOKEN = '424242:first-hour-bot';
const BOT_CHAT = '880088';

/**
 * Code a person must never read: errno codes, API field names and error codes, JSON paths, i18n keys.
 * (`api_id` and `api_hash` are Telegram's own names, shown on my.telegram.org, so they may appear.)
 */
const RAW = [
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH)\b/,
  /\b(telegram_api_id|telegram_api_hash|bot_token|bot_chat_id|push_[a-z_]+|webhook_url|webhook_secret|account_name|account_names|execution_mode|sign_at|chat_id|error_code)\b/,
  /\b(validation_failed|telegram_unavailable|channel_not_configured|bot_not_configured|task_not_runnable|network_error|internal_error)\b/,
  /\b[a-z_]+\.\d+\.[a-z_]+/,
  /\b(dashboard|settings|tasks|accounts|common|fieldRules|field|serverError)\.[a-zA-Z_]+(\.[a-zA-Z.]+)?/,
  // class-validator's own phrasing, which names the API's field before it
  /\b(should not exist|must be shorter than|must be longer than|must not be greater than|must not be less than|must be an? (integer|string|boolean|number))\b/,
  /\b(ai_model|ai_base_url|ai_api_key|new_password|current_password|new_username|webdav_[a-z_]+|timezone)\b/,
];

/**
 * The newcomer's path on a fresh instance, as issue 33 describes it: the Getting started checklist
 * leads from the Telegram API credentials (an account attempt first explains them) to an account, a
 * task run with one click, and a tested notification; the checklist then goes. Every page on the way
 * is checked for raw codes, axe and sideways scrolling.
 */
describe('panel-web: a person\'s first hour', () => {
  let web: WebPanel;
  const bot = new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] });

  beforeAll(async () => {
    await bot.start();
    web = await startWebPanel({ APP_BOT_API_BASE_URL: bot.apiBaseUrl });
    web.telegram.createUser({ phone: '+31 600 000 333', firstName: 'Nina' });
    web.telegram.addBot({ username: 'points_bot', onMessage: (text) => ({ text: text === '/checkin' ? 'Checked in! +5 points' : `unknown: ${text}` }) });
  });

  afterAll(async () => {
    await web?.close();
    await bot.close();
  });

  async function expectPlain(page: Page, where: string): Promise<void> {
    const text = await page.locator('body').innerText();
    for (const pattern of RAW) expect({ where, raw: text.match(pattern)?.[0] ?? null }).toEqual({ where, raw: null });
    expect({ where, violations: await seriousAxeViolations(page) }).toEqual({ where, violations: [] });
    expect({ where, sideways: await scrollsSideways(page) }).toEqual({ where, sideways: false });
  }

  async function checklist(page: Page, done: number): Promise<void> {
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await page.getByText(`${done} of 4 done`).first().waitFor();
  }

  it('credentials, an account attempt, an account, a task run with one click and a notification test, in plain words', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await logIn(page);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await page.getByText('0 of 4 done').first().waitFor();
    await expectPlain(page, 'dashboard, new install');
    await screenshot(page, 'first-hour-checklist');
    const phone = await newPage(web, PHONE);
    await logIn(phone.page);
    await phone.page.getByText('0 of 4 done').first().waitFor();
    await expectPlain(phone.page, 'dashboard, new install, phone');
    await screenshot(phone.page, 'first-hour-checklist-phone');
    expect(phone.errors).toEqual([]);
    await phone.context.close();

    // The first account attempt explains the missing credentials instead of failing.
    await page.getByRole('link', { name: 'Accounts' }).first().click();
    await page.getByRole('button', { name: 'Add account' }).first().click();
    await page.getByRole('menuitem', { name: 'Phone code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a Telegram account' });
    await dialog.getByText('First, the Telegram API credentials').waitFor();
    // The menu closes with a transition; axe must not see its emptied list on the way out.
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await dialog.getByRole('link', { name: 'my.telegram.org' }).getAttribute('href')).toBe('https://my.telegram.org/apps');
    await expectPlain(page, 'add account without credentials');
    await dialog.getByRole('link', { name: 'Open the Telegram API settings' }).click();
    await page.getByRole('tab', { name: 'Telegram API', selected: true }).waitFor();
    await page.getByLabel('api_id').fill('12345');
    // A mistyped hash is named on its field before anything is sent, and the save waits for it.
    const hash = page.getByRole('textbox', { name: 'api_hash' });
    await hash.fill('not-a-hash');
    await page.getByText('Paste the API hash from my.telegram.org: 32 characters, digits and the letters a to f.').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await expectPlain(page, 'Telegram API settings, mistyped hash');
    await screenshot(page, 'first-hour-field-error');
    // The same at 390 px: the sentence wraps under the field, nothing scrolls sideways.
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await expectPlain(page, 'Telegram API settings, mistyped hash, phone');
    await screenshot(page, 'first-hour-field-error-phone');
    await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
    await hash.fill('0123456789abcdef0123456789abcdef');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved').first().waitFor();
    await expectPlain(page, 'Telegram API settings');

    // What only the service knows (a model name too long) comes back on the field, in words; the
    // error toast goes when the next save succeeds.
    await page.getByRole('tab', { name: 'AI' }).click();
    const model = page.getByLabel('Model');
    await model.fill('m'.repeat(129));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Use at most 128 characters.').waitFor();
    const toastText = 'Some fields need a change; each one says what to fix.';
    await page.getByText(toastText).waitFor();
    await expectPlain(page, 'AI settings, refused by the service');
    await screenshot(page, 'first-hour-server-field-error');
    await model.fill('gpt-4o-mini');
    expect(await page.getByText('Use at most 128 characters.').count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved').first().waitFor();
    await page.getByText(toastText).waitFor({ state: 'detached' });

    // The checklist's next step opens the add dialog with the phone login.
    await checklist(page, 1);
    await page.getByRole('link', { name: 'Add an account' }).click();
    const add = page.getByRole('dialog', { name: 'Add a Telegram account' });
    await add.getByRole('tab', { name: 'Phone code', selected: true }).waitFor();
    await add.getByLabel(/^Account name/).fill('nina');
    await add.getByLabel(/^Phone number/).fill('+31600000333');
    await add.getByRole('button', { name: 'Send code' }).click();
    const codeField = add.getByLabel(/^Login code/);
    await codeField.waitFor();
    await codeField.fill(web.telegram.lastLoginCode('+31600000333') ?? '');
    await add.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Account nina added').first().waitFor();
    await expectPlain(page, 'accounts');

    // A task through the editor, then Run now: one click starts it and shows the live log.
    await checklist(page, 2);
    await page.getByRole('link', { name: 'Create a task' }).click();
    await page.waitForURL(/\/tasks\/new$/);
    await page.getByLabel(/^Name/).fill('morning points');
    await page.getByRole('combobox', { name: 'Accounts' }).click();
    await page.getByRole('option', { name: 'nina' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByLabel(/^When/).fill('08:00');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('textbox', { name: /^Chat/ }).fill('@points_bot');
    await page.getByLabel('Text to send').fill('/checkin');
    await expectPlain(page, 'task editor');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('button', { name: 'Save task' }).click();
    await page.waitForURL(/\/tasks$/);
    await page.getByRole('button', { name: 'Run now: morning points' }).click();
    const drawer = page.getByRole('dialog', { name: 'Run: morning points' });
    await drawer.getByRole('list', { name: 'Step log' }).getByText('Answer: Checked in! +5 points').waitFor({ timeout: 30_000 });
    await drawer.getByText('Finished', { exact: true }).waitFor({ timeout: 30_000 });
    await expectPlain(page, 'run drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // A notification test from the channel's card; its result stays on the card.
    await checklist(page, 3);
    await page.getByRole('link', { name: 'Open the notification settings' }).click();
    await page.getByRole('tab', { name: 'Notifications', selected: true }).waitFor();
    await page.getByRole('textbox', { name: 'Bot token' }).fill(BOT_TOKEN);
    await page.getByLabel('Chat id').fill(BOT_CHAT);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved').first().waitFor();
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByText('Last test delivered').waitFor();
    expect(bot.messagesTo(BOT_CHAT)).toHaveLength(1);
    await expectPlain(page, 'notification settings');

    // Everything done: the checklist is gone.
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByText('Successes today').waitFor();
    await page.getByRole('heading', { name: 'Live sign history' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Getting started' }).count()).toBe(0);
    await expectPlain(page, 'dashboard, set up');

    // A mistyped address opens the app's own "page not found", not the service's JSON.
    await page.goto('/dashbaord');
    await page.getByText('Page not found').first().waitFor();
    await expectPlain(page, 'page not found');
    expect(errors).toEqual([]);
    await context.close();
  });
});
