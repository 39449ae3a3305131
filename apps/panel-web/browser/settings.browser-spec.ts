// The browser test uses the same local stand-ins (Bot API, OpenAI-compatible server, WebDAV) as panel-api's e2e tests.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { LocalOpenAiServer, LocalSmtpServer, LocalTelegramBotApi, LocalWebDavServer, LocalWebhookReceiver, waitFor } from '@shared/testing';
import { readFileSync } from 'node:fs';
import { Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin } from '../../panel-api/test/harness';
import { DESKTOP, newPage, openLoggedIn, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

const BOT_TOKEN = '123456:SETTINGS-bot-token';
const BOT_CHAT = '777001';
const SAMPLE = '/work/shared/spec/samples/tg-signpulse-export-typical.json';
const TABS = ['General', 'Telegram API', 'AI', 'Notifications', 'Backups', 'Import and export'] as const;

async function openTab(page: Page, name: (typeof TABS)[number]): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await page.getByRole('tab', { name, exact: true, selected: true }).waitFor();
}

/** i18n keys shown instead of text (a missing translation) on the current tab. */
async function rawKeys(page: Page): Promise<string[]> {
  return (await page.locator('main').innerText()).match(/\bsettings\.[A-Za-z_.]+/g) ?? [];
}

async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Settings saved').first().waitFor();
  await page.getByText('Unsaved changes').waitFor({ state: 'detached' });
}

/** The settings page: save and reload, tests against local stand-ins, backups, configuration export and re-import, the unsaved-changes guard. */
describe('panel-web: settings', () => {
  let web: WebPanel;
  const bot = new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] });
  const openai = new LocalOpenAiServer({ apiKey: 'sk-local', reply: () => 'OK' });
  const webdav = new LocalWebDavServer();
  const receiver = new LocalWebhookReceiver();
  const smtp = new LocalSmtpServer();

  beforeAll(async () => {
    await Promise.all([bot.start(), openai.start(), webdav.start(), receiver.start(), smtp.start()]);
    web = await startWebPanel({ APP_BOT_API_BASE_URL: bot.apiBaseUrl });
  });

  afterAll(async () => {
    await web?.close();
    await Promise.all([bot.close(), openai.close(), webdav.close(), receiver.close(), smtp.close()]);
  });

  it('saves settings that persist after a reload, tests the bot and the AI model, and passes axe on every tab', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/settings');
    await page.waitForURL(/\/settings$/);
    await page.getByLabel('Days between keep-alives').waitFor();
    for (const tab of TABS) {
      await openTab(page, tab);
      expect({ tab, violations: await seriousAxeViolations(page), rawKeys: await rawKeys(page) }).toEqual({ tab, violations: [], rawKeys: [] });
    }

    await openTab(page, 'General');
    await page.getByLabel('Days between keep-alives').fill('45');
    await page.getByText('Unsaved changes').waitFor();
    await screenshot(page, 'settings-desktop');
    await save(page);

    await openTab(page, 'Notifications');
    expect(await page.getByRole('button', { name: 'Send a test message' }).isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Bot token' }).fill(BOT_TOKEN);
    await page.getByLabel('Chat id').fill(BOT_CHAT);
    // Every channel's test says so while anything is unsaved.
    await page.getByText('Save your changes first: the test uses the saved settings.').first().waitFor();
    await save(page);

    await page.reload();
    await page.getByRole('tab', { name: 'Notifications', selected: true }).waitFor();
    // The token never comes back: the field is empty, says it is saved, and offers an explicit clear.
    expect(await page.getByRole('textbox', { name: 'Bot token' }).inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'Bot token' }).getAttribute('aria-describedby')).toBeTruthy();
    await page.getByRole('checkbox', { name: 'Clear the saved Bot token' }).waitFor();
    expect(await page.getByLabel('Chat id').inputValue()).toBe(BOT_CHAT);
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByText('Last test delivered').waitFor();
    expect(bot.messagesTo(BOT_CHAT).length).toBe(1);

    // Every channel has its own test and keeps its last result (issue 33 item 7): Bark reaches a local
    // receiver, ntfy points at a port where nothing listens and says so in a sentence, no errno.
    await page.getByRole('textbox', { name: 'Bark URL' }).fill(receiver.urlFor('/bark/device-key'));
    await page.getByLabel('ntfy topic URL').fill('http://127.0.0.1:9/panel-topic');
    await save(page);
    const card = (title: string) => page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: title, exact: true }) });
    await card('Bark URL').getByRole('button', { name: 'Send a test' }).click();
    await card('Bark URL').getByText('Last test delivered').waitFor();
    expect(receiver.requestsTo('/bark/device-key')).toHaveLength(1);
    await card('ntfy').getByRole('button', { name: 'Send a test' }).click();
    await card('ntfy').getByText('Last test failed').waitFor();
    await card('ntfy').getByText(/Nothing answered at that address/).waitFor();
    expect(await card('ServerChan').getByRole('button', { name: 'Send a test' }).isDisabled()).toBe(true);
    await page.reload();
    await card('ntfy').getByText('Last test failed').waitFor();
    await card('Bark URL').getByText('Last test delivered').waitFor();
    await card('Bot notifications').getByText('Last test delivered').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/ECONN|ENOTFOUND|EAI_AGAIN|network_error|push_ntfy_url/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'settings-notifications');
    await openTab(page, 'General');
    expect(await page.getByLabel('Days between keep-alives').inputValue()).toBe('45');
    await page.getByRole('button', { name: 'Run keep-alive now' }).click();
    await page.getByText('There are no accounts to wake.').waitFor();

    await openTab(page, 'AI');
    await page.getByLabel('Base URL').fill(openai.baseUrl);
    await page.getByLabel('Model').fill('gpt-4o-mini');
    await page.getByRole('textbox', { name: 'API key' }).fill('sk-local');
    await save(page);
    await page.getByRole('button', { name: 'Test the AI model' }).click();
    await page.getByText(/The model answered in \d+ ms/).waitFor();
    await page.getByText('Answer: OK').waitFor();

    // Moving the AI URL to another server asks for the key again before it can be saved.
    await page.getByLabel('Base URL').fill('http://127.0.0.2:9/v1');
    await page.getByText('The address now points to another server: enter this again, or clear it.').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByLabel('Base URL').inputValue()).toBe(openai.baseUrl);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tests WebDAV, uploads and downloads backups, and lists the remote folder', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/settings?tab=backups');
    await page.getByText('No WebDAV target is saved').waitFor();
    await page.getByLabel('WebDAV URL').fill(webdav.url);
    await page.getByLabel('Username').fill(webdav.username);
    await page.getByLabel('Password', { exact: true }).fill(webdav.password);
    await save(page);
    await page.getByRole('button', { name: 'Test WebDAV' }).click();
    await page.getByText('The WebDAV target answered').waitFor();

    const [archive] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()]);
    expect(archive.suggestedFilename()).toMatch(/\.tar\.gz$/);

    await page.getByText('No backups in the folder yet').waitFor();
    await page.getByRole('button', { name: 'Upload a backup to WebDAV' }).click();
    await page.getByText(/^Uploaded backup-.*\.tar\.gz/).waitFor();
    const remote = page.getByRole('button', { name: /^Download backup-.*\.tar\.gz$/ });
    await remote.waitFor();
    const [remoteDownload] = await Promise.all([page.waitForEvent('download'), remote.click()]);
    expect(remoteDownload.suggestedFilename()).toMatch(/^backup-.*\.tar\.gz$/);
    await screenshot(page, 'settings-backups');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('imports a reference-panel export, exports the configuration and re-imports it (preview, then confirm)', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    // The download and the export must carry the token in the header, never in the URL.
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await openLoggedIn(web, page, '/settings?tab=configuration');
    await page.getByRole('button', { name: 'Preview the import' }).waitFor();

    await page.locator('input[type=file]').setInputFiles({ name: 'tg-signpulse-export-typical.json', mimeType: 'application/json', buffer: readFileSync(SAMPLE) });
    await page.getByRole('button', { name: 'Preview the import' }).click();
    await page.getByRole('checkbox', { name: 'Import Task: daily_checkin' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Import Task: daily_checkin' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Import Settings' }).waitFor();
    // Leave one task out of this import.
    await page.getByRole('checkbox', { name: 'Import Task: dice_lottery' }).uncheck();
    await page.getByRole('button', { name: 'Field details' }).first().click();
    await page.getByText(/^Fields taken \(\d+\)$/).first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'settings-import-preview');
    await page.getByRole('button', { name: /^Import \d+ items?$/ }).click();
    await page.getByRole('dialog', { name: 'Import the configuration?' }).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Import finished').waitFor();
    await page.getByText(/^Created \(\d+\): .*Task: daily_checkin/).waitFor();
    const tasks = (await (await fetch(`${web.panel.url}/api/sign-tasks`, { headers: { authorization: `Bearer ${await loginAsAdmin(web.panel)}` } })).json()) as unknown;
    expect(JSON.stringify(tasks)).toContain('daily_checkin');
    expect(JSON.stringify(tasks)).not.toContain('dice_lottery');

    const [exported] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the configuration' }).click()]);
    const path = await exported.path();
    const document = JSON.parse(readFileSync(path, 'utf8')) as { _meta: { format: string }; signs: Record<string, unknown> };
    expect(document._meta.format).toBe('tg-signpulse-config-export');
    expect(Object.keys(document.signs).some((key) => key.startsWith('daily_checkin@'))).toBe(true);

    await page.locator('input[type=file]').setInputFiles(path);
    await page.getByRole('switch', { name: /Replace tasks that already exist/ }).check();
    await page.getByRole('button', { name: 'Preview the import' }).click();
    await page.getByRole('checkbox', { name: 'Import Task: daily_checkin' }).waitFor();
    await page.getByText(/^Replaces: \d+$/).waitFor();
    await page.getByRole('button', { name: /^Import \d+ items?$/ }).click();
    await page.getByRole('dialog', { name: 'Import the configuration?' }).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(/^Replaced \(\d+\): .*Task: daily_checkin/).waitFor();
    expect(urls.filter((url) => /token=/i.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks before leaving with unsaved changes', async () => {
    const { page, context } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/settings');
    await page.getByLabel('Days between keep-alives').fill('60');
    await page.getByText('Unsaved changes').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await page.getByLabel('Days between keep-alives').inputValue()).toBe('60');
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('sets up Discord and email, says what is wrong on the field, and tests both from their cards (%s)', async (name, viewport) => {
    const { page, context, errors } = await newPage(web, viewport);
    await openLoggedIn(web, page, '/settings?tab=notifications');
    const card = (title: string) => page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: title, exact: true }) });
    await card('Email').waitFor();
    const discordPath = `/api/webhooks/${name}/token`;
    await page.getByRole('textbox', { name: 'Discord webhook URL' }).fill(receiver.urlFor(discordPath));
    await page.getByLabel('SMTP server').fill('smtp://wrong');
    await page.getByLabel('Recipients').fill('ops@example.org, nobody');
    // The form says what to fix in a sentence on each field, and does not send what the service would refuse.
    await card('Email').getByText('Enter the mail server\'s name, such as smtp.example.org, without http:// or a port.').waitFor();
    await card('Email').getByText('Enter 1 to 20 addresses such as ops@example.com, separated by commas.').waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('SMTP server').fill(smtp.host);
    await card('Email').getByLabel('Port').fill(String(smtp.listeningPort));
    await page.getByRole('combobox', { name: 'Encryption' }).click();
    await page.getByRole('option', { name: 'None (local server only)' }).click();
    await page.getByLabel('Sender').fill('Sign Panel <panel@example.org>');
    await page.getByLabel('Recipients').fill(`ops-${name}@example.org`);
    await save(page);

    // The desktop run tested these cards before: the receivers, not the cards, say this test arrived.
    const mails = () => smtp.messages.filter((message) => message.to.includes(`ops-${name}@example.org`));
    await card('Discord').getByRole('button', { name: 'Send a test' }).click();
    await waitFor(() => receiver.requestsTo(discordPath).length === 1);
    await card('Discord').getByText('Last test delivered').waitFor();
    expect(JSON.parse(receiver.requestsTo(discordPath)[0]?.bodyText ?? '{}')).toMatchObject({ content: expect.stringMatching(/^\*\*Test notification\*\*\n/) });
    await card('Email').getByRole('button', { name: 'Send a test' }).click();
    await waitFor(() => mails().length === 1);
    await card('Email').getByText('Last test delivered').waitFor();
    expect(mails()[0]?.raw).toMatch(/^Subject: Test notification\r$/m);
    await page.reload();
    await card('Email').getByText('Last test delivered').waitFor();
    expect(await page.getByRole('textbox', { name: 'Discord webhook URL' }).inputValue()).toBe('');
    await page.getByRole('checkbox', { name: 'Clear the saved Discord webhook URL' }).waitFor();
    expect(await page.getByLabel('SMTP server').inputValue()).toBe(smtp.host);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await rawKeys(page)).toEqual([]);
    // The new cards in view: Discord onwards on a wide screen, the email card on a phone.
    await card(name === 'desktop' ? 'Discord' : 'Email').evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, `settings-channels-${name}`);

    if (name === 'desktop') {
      // The same cards in Chinese (the banner's language picker; on a phone it sits in the menu).
      await page.getByRole('banner').getByLabel('Language').selectOption('zh-CN');
      await page.getByRole('heading', { name: '邮件', exact: true }).waitFor();
      await page.getByLabel('SMTP 服务器').waitFor();
      expect(await rawKeys(page)).toEqual([]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('saves at 390x844 without sideways scrolling on any tab', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openLoggedIn(web, page, '/settings');
    await page.getByLabel('Days between keep-alives').waitFor();
    for (const tab of TABS) {
      await openTab(page, tab);
      expect({ tab, sideways: await scrollsSideways(page) }).toEqual({ tab, sideways: false });
    }
    await openTab(page, 'Backups');
    await page.getByLabel('Hours between backups').fill('12');
    await page.getByRole('switch', { name: 'Back up automatically' }).check();
    expect(await page.getByRole('switch', { name: 'Back up automatically' }).isChecked()).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'settings-phone');
    await save(page);
    await page.reload();
    await page.getByLabel('Hours between backups').waitFor();
    expect(await page.getByLabel('Hours between backups').inputValue()).toBe('12');
    expect(await page.getByRole('switch', { name: 'Back up automatically' }).isChecked()).toBe(true);
    await page.getByText(/^Next backup: \d{4}-\d{2}-\d{2} /).waitFor();
    expect(await scrollsSideways(page)).toBe(false);

    // The import preview (long names, field lists) fits the phone too.
    await openTab(page, 'Import and export');
    await page.locator('input[type=file]').setInputFiles({ name: 'tg-signpulse-export-typical.json', mimeType: 'application/json', buffer: readFileSync(SAMPLE) });
    await page.getByRole('button', { name: 'Preview the import' }).click();
    await page.getByRole('checkbox', { name: 'Import Task: ai_quiz' }).waitFor();
    await page.getByRole('button', { name: 'Field details' }).first().click();
    await page.getByText(/^Fields without an equivalent \(\d+\)$/).first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await rawKeys(page)).toEqual([]);
    await screenshot(page, 'settings-import-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
