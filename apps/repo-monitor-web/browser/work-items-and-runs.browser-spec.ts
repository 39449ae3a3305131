// eslint-disable-next-line @nx/enforce-module-boundaries
import { pullRequestEvent, workflowRunEvent } from '../../repo-monitor/test/github-fixtures';
import {
  DESKTOP,
  INSTALLATION_ID,
  installationCreated,
  issueEvent,
  newPage,
  openSignedIn,
  PHONE,
  screenshot,
  scrollsSideways,
  sendDelivery,
  seriousAxeViolations,
  startWebMonitor,
  waitFor,
  WebMonitor,
} from './support';

/**
 * The issues and pull requests page and the workflow runs page against the real repo-monitor: an
 * issue, a merged pull request and a failed and a passing workflow run arrive as signed webhooks,
 * show on the pages, and the filters and search (kept in the URL) narrow them.
 */
describe('repo-monitor console: issues, pull requests and workflow runs', () => {
  let web: WebMonitor;
  const repository = { full_name: 'acme/api', id: 0 };
  const ISSUE_TITLE = 'Crash when <b>parsing</b> the config';

  beforeAll(async () => {
    web = await startWebMonitor();
    web.github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: [repository.full_name] });
    repository.id = Number(web.github.repositories.get(repository.full_name)?.id);
    expect((await sendDelivery(web.monitor.url, 'installation', installationCreated(INSTALLATION_ID, 'acme', [repository]))).status).toBe(202);
    const deliveries: [string, Record<string, unknown>][] = [
      ['issues', issueEvent('opened', INSTALLATION_ID, repository, 7, ISSUE_TITLE)],
      ['pull_request', pullRequestEvent(INSTALLATION_ID, repository, 12, 'closed', { merged: true })],
      ['workflow_run', workflowRunEvent(INSTALLATION_ID, repository, { id: 4401, conclusion: 'failure', name: 'Build <i>all</i>', branch: 'feature/x' })],
      ['workflow_run', workflowRunEvent(INSTALLATION_ID, repository, { id: 4402, conclusion: 'success', name: 'Lint' })],
    ];
    for (const [event, payload] of deliveries) expect((await sendDelivery(web.monitor.url, event, payload)).status).toBe(202);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('lists the issue and the merged pull request, and the filters and search narrow them through the URL', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/work-items', web.monitor.url);
    await page.waitForURL(/\/work-items$/);
    const table = page.getByRole('table', { name: 'Issues and pull requests, most recently updated first' });
    // Deliveries are applied in the background; the page refreshes itself every 15 s.
    const issue = table.getByRole('link', { name: `#7 ${ISSUE_TITLE}` });
    const pull = table.getByRole('link', { name: '#12 Change 12' });
    await issue.waitFor({ timeout: 40_000 });
    await pull.waitFor({ timeout: 40_000 });
    expect(await issue.getAttribute('href')).toBe('https://github.com/acme/api/issues/7');
    expect(await issue.getAttribute('target')).toBe('_blank');
    expect(await page.locator('a b').count()).toBe(0);
    await table.getByRole('row', { name: /Change 12/ }).getByText('Merged').waitFor();
    await table.getByRole('row', { name: /Change 12/ }).getByText('acme/api').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-work-items-desktop');

    await page.getByLabel('Kind').selectOption({ label: 'Pull request' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/kind=pull_request/);
    await issue.waitFor({ state: 'detached' });
    await pull.waitFor();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/work-items$/);
    await page.getByLabel('Title, author or #number').fill('parsing');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=parsing/);
    await pull.waitFor({ state: 'detached' });
    await issue.waitFor();

    await page.getByLabel('State').selectOption({ label: 'Closed' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/state=closed/);
    await page.getByText('No issues or pull requests match.').waitFor();
    // A shared link shows the same list.
    await page.goto('/work-items?q=%2312');
    await pull.waitFor();
    expect(await issue.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists the runs with the failed one marked, and narrows them by conclusion and search', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/workflow-runs', web.monitor.url);
    await page.waitForURL(/\/workflow-runs$/);
    const table = page.getByRole('table', { name: 'Workflow runs, most recently updated first' });
    const failed = table.getByRole('link', { name: 'Build <i>all</i>' });
    const lint = table.getByRole('link', { name: 'Lint' });
    await failed.waitFor({ timeout: 40_000 });
    await lint.waitFor({ timeout: 40_000 });
    expect(await failed.getAttribute('href')).toBe('https://github.com/acme/api/actions/runs/4401');
    expect(await failed.getAttribute('target')).toBe('_blank');
    expect(await page.locator('a i').count()).toBe(0);
    await table.getByRole('row', { name: /Build/ }).getByText('Failed').waitFor();
    await table.getByRole('row', { name: /Lint/ }).getByText('Succeeded').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-workflow-runs-desktop');

    await page.getByLabel('Conclusion').selectOption({ label: 'Failed' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/conclusion=failure/);
    await lint.waitFor({ state: 'detached' });
    await failed.waitFor();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Workflow, branch or commit').fill('feature/');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=feature/);
    await lint.waitFor({ state: 'detached' });
    await failed.waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('both pages work at 390x844 without sideways scrolling', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openSignedIn(page, '/work-items', web.monitor.url);
    await page.getByRole('link', { name: `#7 ${ISSUE_TITLE}` }).waitFor({ timeout: 40_000 });
    await waitFor(async () => (await page.getByText('acme/api').count()) > 0, 20_000);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-work-items-phone');
    await page.goto('/workflow-runs');
    await page.getByRole('link', { name: 'Build <i>all</i>' }).waitFor({ timeout: 40_000 });
    await page.locator('span', { hasText: /^Failed$/ }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-workflow-runs-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
