// eslint-disable-next-line @nx/enforce-module-boundaries
import { adminHeaders, loginAdmin } from '../../repo-monitor/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { repositoryPayload } from '../../repo-monitor/test/github-fixtures';
import { DESKTOP, newPage, openSignedIn, PHONE, scrollsSideways, sendDelivery, seriousAxeViolations, startWebMonitor, waitFor, WebMonitor } from './support';

/**
 * The message templates page against the real repo-monitor: the preview renders the newest recorded
 * issue as the channel would get it, follows every edit, and the saved template is what the next
 * issue's notification says; reset goes back to the default. A rule's match fields are edited on the
 * Rules page. Axe-clean at 1280 and 390 px.
 */
describe('repo-monitor console: message templates and rule editing', () => {
  let web: WebMonitor;
  let nextIssue = 40;

  const deliverIssue = async (title: string) => {
    const number = nextIssue++;
    const payload = {
      action: 'opened',
      repository: repositoryPayload('acme/tools', 9912),
      issue: { number, title, state: 'open', html_url: `https://github.com/acme/tools/issues/${number}`, user: { login: 'alice' }, labels: [{ id: 1, name: 'bug' }], updated_at: new Date().toISOString() },
      sender: { login: 'alice' },
    };
    const sentBefore = web.telegram.messages.length;
    expect((await sendDelivery(web.monitor.url, 'issues', payload)).status).toBe(202);
    await waitFor(() => web.telegram.messages.length > sentBefore, 20_000);
    return web.telegram.messages[web.telegram.messages.length - 1];
  };

  beforeAll(async () => {
    web = await startWebMonitor();
    await deliverIssue('Crash when <b> & co');
  });

  afterAll(async () => {
    await web?.close();
  });

  it('previews a template on the latest issue as the channel gets it, saves it, and resets it', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/templates', web.monitor.url);
    await page.getByRole('heading', { name: 'Message templates' }).waitFor();
    await page.getByText('No templates yet').waitFor();

    await page.getByRole('combobox', { name: /^Channel or rule/ }).selectOption({ label: 'Telegram (from environment) (Telegram)' });
    await page.getByRole('combobox', { name: /^Kind of event/ }).selectOption('issues');
    const preview = page.getByRole('figure', { name: 'Preview' });
    // Starts from the default message, rendered on the recorded issue (HTML-escaped for Telegram).
    await page.getByText('On the latest event of this kind: Issue #40 opened: Crash when <b> & co').waitFor();
    await preview.getByText('<b>[acme/tools] Issue #40 opened: Crash when &lt;b&gt; &amp; co</b>', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const editor = page.getByRole('textbox', { name: /^Template/ });
    await editor.fill('🐞 <b>{{title}}</b> {{#labels}}#{{.}} {{/labels}}');
    await preview.getByText('🐞 <b>Issue #40 opened: Crash when &lt;b&gt; &amp; co</b> #bug').waitFor();
    await editor.fill('{{{title}}}');
    await page.getByText(/would skip escaping/).waitFor();
    expect(await page.getByRole('button', { name: 'Save template' }).isDisabled()).toBe(true);
    await editor.fill('🐞 <b>{{title}}</b> {{#labels}}#{{.}} {{/labels}}');
    await preview.getByText('🐞 <b>Issue #40 opened: Crash when &lt;b&gt; &amp; co</b> #bug').waitFor();
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('cell', { name: 'Channel Telegram (from environment)' }).waitFor();

    const templated = await deliverIssue('Second <i>issue</i>');
    expect(templated?.text).toBe('🐞 <b>Issue #41 opened: Second &lt;i&gt;issue&lt;/i&gt;</b> #bug');

    await page.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset to default' }).click();
    await page.getByText('No templates yet').waitFor();
    const plain = await deliverIssue('Third');
    expect(plain?.text).toBe('<b>[acme/tools] Issue #42 opened: Third</b>\nThird\nby alice');

    const session = await loginAdmin(web.monitor);
    const audit = (await (await fetch(`${web.monitor.url}/api/v1/audit-log?action=notification_template`, { headers: adminHeaders(session) })).json()) as { items: Array<{ action: string }> };
    expect(audit.items.map((entry) => entry.action)).toEqual(['notification_template.reset', 'notification_template.saved']);
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('writes the title a push channel shows from a title template, and says a refused template on its field in Chinese, at 1280 and 390 px', async () => {
    const session = await loginAdmin(web.monitor);
    const discordPath = '/api/webhooks/6/discord-title-token';
    const created = await fetch(`${web.monitor.url}/api/v1/notification-channels`, {
      method: 'POST',
      headers: { ...adminHeaders(session), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'discord', name: 'Push Discord', url: web.webhooks.urlFor(discordPath), allow_private: true }),
    });
    expect(created.status).toBe(201);

    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/templates', web.monitor.url);
    await page.getByRole('combobox', { name: /^Channel or rule/ }).selectOption({ label: 'Push Discord (Discord)' });
    await page.getByRole('combobox', { name: /^Kind of event/ }).selectOption('issues');
    // Telegram has no title of its own; a Discord post does (its bold first line).
    await page.getByRole('combobox', { name: /^Part/ }).selectOption('title');
    const editor = page.getByRole('textbox', { name: /^Title template/ });
    await waitFor(async () => (await editor.inputValue()) === '{{heading}}', 15_000);
    const preview = page.getByRole('figure', { name: 'Preview' });
    await editor.fill('⚠ {{repository}}:\n{{title}}');
    await preview.getByText('⚠ acme/tools: Issue #42 opened: Third').waitFor();
    await page.getByText(/title: \d+ of 250 characters/).waitFor();
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('button', { name: 'Edit the title template of Push Discord for issues' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const before = web.webhooks.requestsTo(discordPath).length;
    await deliverIssue('Titled');
    await waitFor(() => web.webhooks.requestsTo(discordPath).length > before, 20_000);
    const content = (JSON.parse(web.webhooks.requestsTo(discordPath)[before].bodyText) as { content: string }).content;
    expect(content.split('\n')[0]).toBe('**⚠ acme/tools: Issue \\#43 opened: Titled**');

    // In Chinese, a template the service refuses is said on the template field in Chinese.
    await page.evaluate(() => localStorage.setItem('ui.language', 'zh-CN'));
    await page.reload();
    await page.getByRole('heading', { name: '消息模板' }).waitFor();
    await page.getByRole('combobox', { name: /^渠道或规则/ }).selectOption({ label: 'Push Discord (Discord)' });
    const body = page.getByRole('textbox', { name: /^模板/ });
    await body.fill('{{#labels}}{{title}}');
    await page.getByText('模板无法解析：打开的区块都必须关闭，花括号也必须成对闭合。').waitFor();
    expect(await body.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: '保存模板' }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits the match fields of a saved rule', async () => {
    const session = await loginAdmin(web.monitor);
    const channels = (await (await fetch(`${web.monitor.url}/api/v1/notification-channels`, { headers: adminHeaders(session) })).json()) as { items: Array<{ id: string }> };
    const created = await fetch(`${web.monitor.url}/api/v1/notification-rules`, {
      method: 'POST',
      headers: { ...adminHeaders(session), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bugs to the chat', match: { events: ['issues'], labels_any: ['bug'] }, route: { channel_ids: [channels.items[0].id] } }),
    });
    expect(created.status).toBe(201);

    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/rules', web.monitor.url);
    await page.getByRole('button', { name: 'Edit Bugs to the chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit rule' });
    await dialog.getByRole('textbox', { name: 'Any of these labels' }).fill('bug, regression');
    await dialog.getByRole('textbox', { name: 'Branches' }).fill('main');
    await dialog.getByRole('textbox', { name: /^Telegram topic/ }).fill('7');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const card = page.getByRole('article', { name: 'Bugs to the chat' });
    await card.getByText('Matches: events issues; labels_any bug, regression; branches main').waitFor();
    await card.getByText('Sends to: Telegram (from environment) · topic 7').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates a Discord channel from the form and tests it; the email form checks its fields, axe-clean at 1280 and 390 px', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/channels', web.monitor.url);
    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New channel' });
    const kind = dialog.getByRole('combobox', { name: /^Kind/ });
    expect(await kind.locator('option').allTextContents()).toEqual(['Telegram', 'Signed webhook', 'Discord', 'Slack', 'Microsoft Teams', 'ntfy', 'Gotify', 'Bark', 'Email']);
    await kind.selectOption('discord');
    await dialog.getByLabel(/^Name/).fill('Team Discord');
    await dialog.getByLabel(/^Discord webhook URL/).fill(web.webhooks.urlFor('/not-discord'));
    await dialog.getByRole('checkbox', { name: 'Allow private targets' }).check();
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.getByText('A Discord webhook URL looks like https://discord.com/api/webhooks/<id>/<token>').waitFor();
    await dialog.getByLabel(/^Discord webhook URL/).fill(web.webhooks.urlFor('/api/webhooks/5/discord-token-abcdef'));
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    const card = page.getByRole('article', { name: 'Team Discord' });
    await card.getByRole('button', { name: 'Send test' }).click();
    await card.getByRole('status').getByText('Test delivered').waitFor();
    expect(web.webhooks.requestsTo('/api/webhooks/5/discord-token-abcdef')).toHaveLength(1);

    await page.getByRole('button', { name: 'Add channel' }).click();
    await kind.selectOption('email');
    await dialog.getByLabel(/^Name/).fill('Mail');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.getByText('A host name like smtp.example.com').waitFor();
    await dialog.getByText('At least one recipient').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openSignedIn(page, '/templates', web.monitor.url);
    await page.getByRole('heading', { name: 'Message templates' }).waitFor();
    await page.getByRole('combobox', { name: /^Channel or rule/ }).selectOption({ label: 'Telegram (from environment) (Telegram)' });
    await page.getByRole('figure', { name: 'Preview' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
