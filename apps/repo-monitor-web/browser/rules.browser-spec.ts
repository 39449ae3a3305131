// eslint-disable-next-line @nx/enforce-module-boundaries
import { adminHeaders, loginAdmin } from '../../repo-monitor/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { repositoryPayload } from '../../repo-monitor/test/github-fixtures';
import { DESKTOP, newPage, openSignedIn, PHONE, scrollsSideways, sendDelivery, seriousAxeViolations, startWebMonitor, waitFor, WebMonitor } from './support';

/**
 * The Rules page against the real repo-monitor: rules made from templates (a dry run on the routed
 * events first), reordered and switched off, axe-clean at 1280 and 390 px; the events page explains
 * where an event went.
 */
describe('repo-monitor console: routing rules', () => {
  let web: WebMonitor;

  beforeAll(async () => {
    web = await startWebMonitor();
    // An issue Dependabot opened on a repository outside the installation: recorded and routed (by the channel filters).
    const payload = {
      action: 'opened',
      repository: repositoryPayload('acme/tools', 9911),
      issue: { number: 5, title: 'Bump lodash from 4.17.20 to 4.17.21', state: 'open', html_url: 'https://github.com/acme/tools/issues/5', user: { login: 'dependabot[bot]' }, labels: [], updated_at: new Date().toISOString() },
      sender: { login: 'dependabot[bot]' },
    };
    expect((await sendDelivery(web.monitor.url, 'issues', payload)).status).toBe(202);
    const session = await loginAdmin(web.monitor);
    await waitFor(async () => {
      const response = await fetch(`${web.monitor.url}/api/v1/events?per_page=1`, { headers: adminHeaders(session) });
      return ((await response.json()) as { total: number }).total === 1;
    }, 20_000);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('creates rules from templates after a dry run, reorders and switches one off', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/rules', web.monitor.url);
    await page.getByRole('heading', { name: 'Routing rules' }).waitFor();
    await page.getByText('No rules yet').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New rule from a template' });
    await dialog.getByRole('button', { name: 'Dry run on the last 50 events' }).click();
    await dialog.getByText('With this rule added, the last 1 events would go:').waitFor();
    const row = dialog.getByRole('row', { name: /Bump lodash/ });
    await row.getByText('Muted by the rule "Mute Dependabot" (it matched, routes nowhere and stops).').waitFor();
    await row.getByText(/^By the channels' kind filters \(no rule is enabled\): sent to Telegram \(from environment\)\.$/).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('article', { name: 'Mute Dependabot' }).waitFor();

    await page.getByRole('button', { name: 'Add rule' }).click();
    await dialog.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'Failed workflows of main to the ops topic' }).click();
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await dialog.getByText('Choose the channel the events go to').waitFor();
    await dialog.getByRole('combobox', { name: /^Channel/ }).click();
    await page.getByRole('option', { name: 'Telegram (from environment)' }).click();
    await dialog.getByRole('textbox', { name: /^Telegram topic/ }).fill('42');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    const failed = page.getByRole('article', { name: 'Failed workflows of main to the ops topic' });
    await failed.getByText('Sends to: Telegram (from environment) · topic 42').waitFor();

    await page.getByRole('button', { name: 'Move Failed workflows of main to the ops topic up' }).click();
    await failed.getByText('Rule 1').waitFor();
    await page.getByRole('article', { name: 'Mute Dependabot' }).getByText('Rule 2').waitFor();
    await page.getByRole('switch', { name: 'Use the rule Mute Dependabot' }).click({ force: true });
    await page.getByText('Mute Dependabot is off').waitFor();

    const session = await loginAdmin(web.monitor);
    const stored = (await (await fetch(`${web.monitor.url}/api/v1/notification-rules`, { headers: adminHeaders(session) })).json()) as {
      items: Array<{ name: string; enabled: boolean; route: { message_thread_id: number | null } }>;
    };
    expect(stored.items.map((rule) => [rule.name, rule.enabled, rule.route.message_thread_id])).toEqual([
      ['Failed workflows of main to the ops topic', true, 42],
      ['Mute Dependabot', false, null],
    ]);
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('explains on the events page where an event went', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/events', web.monitor.url);
    await page.getByRole('button', { name: 'Where it went: Issue #5 opened: Bump lodash from 4.17.20 to 4.17.21' }).click();
    const dialog = page.getByRole('dialog', { name: 'Where “Issue #5 opened: Bump lodash from 4.17.20 to 4.17.21” went' });
    await dialog.getByText("By the channels' kind filters (no rule is enabled): sent to Telegram (from environment).").waitFor();
    const row = dialog.getByRole('row', { name: /Telegram \(from environment\)/ });
    await row.getByText('Sent', { exact: true }).waitFor();
    await row.getByText('Delivered', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openSignedIn(page, '/rules', web.monitor.url);
    await page.getByRole('article', { name: 'Mute Dependabot' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
