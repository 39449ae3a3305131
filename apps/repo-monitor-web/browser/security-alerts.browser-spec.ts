// eslint-disable-next-line @nx/enforce-module-boundaries
import { securityAlertEvent } from '../../repo-monitor/test/github-fixtures';
import { DESKTOP, INSTALLATION_ID, installationCreated, newPage, openSignedIn, PHONE, screenshot, scrollsSideways, sendDelivery, seriousAxeViolations, startWebMonitor, WebMonitor } from './support';

/**
 * The security alerts page against the real repo-monitor: a Dependabot, a code scanning and a secret
 * scanning alert arrive as signed webhooks and show on the page; one is ignored (after confirming)
 * and then watched again, each change read back from the service; the filters narrow the list.
 */
describe('repo-monitor console: security alerts', () => {
  let web: WebMonitor;
  const repository = { full_name: 'acme/api', id: 0 };

  beforeAll(async () => {
    web = await startWebMonitor();
    web.github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: [repository.full_name] });
    repository.id = Number(web.github.repositories.get(repository.full_name)?.id);
    expect((await sendDelivery(web.monitor.url, 'installation', installationCreated(INSTALLATION_ID, 'acme', [repository]))).status).toBe(202);
    for (const [event, number] of [
      ['dependabot_alert', 3],
      ['code_scanning_alert', 5],
      ['secret_scanning_alert', 9],
    ] as const) {
      expect((await sendDelivery(web.monitor.url, event, securityAlertEvent(event, INSTALLATION_ID, repository, number, 'created'))).status).toBe(202);
    }
  });

  afterAll(async () => {
    await web?.close();
  });

  it('lists the alerts, ignores one and stops ignoring it, and filters through the URL', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/security-alerts', web.monitor.url);
    await page.waitForURL(/\/security-alerts$/);
    const table = page.getByRole('table', { name: 'Security alerts, most recently updated first' });
    // Deliveries are applied in the background; the page refreshes itself every 15 s.
    const dependabot = table.getByRole('row', { name: /#3 / });
    await dependabot.waitFor({ timeout: 40_000 });
    await table.getByRole('row', { name: /#5 / }).waitFor({ timeout: 40_000 });
    await table.getByRole('row', { name: /#9 / }).waitFor({ timeout: 40_000 });
    expect(await dependabot.getByRole('link').getAttribute('href')).toBe('https://github.com/acme/api/security/dependabot_alert/3');
    await dependabot.getByText('High').waitFor();
    await dependabot.getByText('Dependabot').waitFor();
    await dependabot.getByText('acme/api').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-security-alerts-desktop');

    await page.getByRole('button', { name: 'Ignore alert #3: no more notifications for it' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ignore this alert?' });
    await dialog.getByRole('button', { name: 'Ignore' }).click();
    await page.getByText('Alert #3 is ignored: no more notifications for it').waitFor();
    await dependabot.getByText('Ignored', { exact: true }).waitFor();

    // Only ignored ones: the other two leave.
    await page.getByLabel('Notifications', { exact: true }).selectOption({ label: 'Ignored only' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/ignored=yes/);
    await table.getByRole('row', { name: /#5 / }).waitFor({ state: 'detached' });
    await dependabot.waitFor();

    await page.getByRole('button', { name: 'Stop ignoring alert #3: notify about it again' }).click();
    await page.getByText('Alert #3 notifies again').waitFor();
    await page.getByText('No security alerts match.').waitFor();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/security-alerts$/);
    await page.getByLabel('Kind', { exact: true }).selectOption({ label: 'Secret scanning' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/kind=secret_scanning/);
    await dependabot.waitFor({ state: 'detached' });
    await table.getByRole('row', { name: /#9 / }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at 390x844 without sideways scrolling', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openSignedIn(page, '/security-alerts', web.monitor.url);
    await page.getByRole('button', { name: 'Ignore alert #3: no more notifications for it' }).waitFor({ timeout: 40_000 });
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-security-alerts-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
