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

/** The dashboard: the onboarding checklist from the real state, and a signed webhook showing up without a reload. */
describe('repo-monitor console: dashboard', () => {
  let web: WebMonitor;
  const repository = { full_name: 'acme/api', id: 0 };

  beforeAll(async () => {
    web = await startWebMonitor();
    web.github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: [repository.full_name] });
    repository.id = Number(web.github.repositories.get(repository.full_name)?.id);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('lists what is left to set up, then shows a signed delivery and its event without a reload', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/dashboard', web.monitor.url);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    await page.getByText('Getting started').waitFor();
    // Nothing installed yet: the installation and repository items link to where they are fixed.
    await page.getByRole('link', { name: 'Set up: The App installed on an account' }).waitFor();
    expect(await page.getByRole('link', { name: 'Set up: At least one repository watched' }).getAttribute('href')).toBe('/repositories');
    await page.getByText('No deliveries from GitHub yet.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // GitHub installs the App and an issue is opened: both deliveries are signed as GitHub signs them.
    expect((await sendDelivery(web.monitor.url, 'installation', installationCreated(INSTALLATION_ID, 'acme', [repository]))).status).toBe(202);
    await waitFor(async () => {
      const response = await page.request.get('/api/v1/repositories');
      const body = (await response.json()) as { items: { baseline_imported_at: string | null }[] };
      return body.items.length === 1 && body.items[0].baseline_imported_at !== null;
    }, 20_000);
    const title = 'Crash when <b>parsing</b> the config';
    expect((await sendDelivery(web.monitor.url, 'issues', issueEvent('opened', INSTALLATION_ID, repository, 7, title))).status).toBe(202);

    // The page refreshes itself (every 15 s): the event (as text, not HTML) and the deliveries appear.
    await page.getByRole('link', { name: title }).waitFor({ timeout: 40_000 });
    await page.getByText('issues · opened — acme/api').waitFor();
    expect(await page.locator('b', { hasText: 'parsing' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-dashboard-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists the event on the events page, filters it through the URL and shows a new one without a reload', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/events', web.monitor.url);
    await page.waitForURL(/\/events$/);
    const table = page.getByRole('table', { name: 'Events, newest first' });
    await table.getByRole('link', { name: 'Crash when <b>parsing</b> the config' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Filters go into the URL, and the list follows them.
    await page.getByLabel('Category').selectOption({ label: 'Pull requests' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/category=pr/);
    await page.getByText('No events match.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Search title, text or actor').fill('parsing');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=parsing/);
    await table.getByRole('link', { name: 'Crash when <b>parsing</b> the config' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/events$/);

    // A new delivery shows up while the page is open (it refreshes every 15 s).
    expect((await sendDelivery(web.monitor.url, 'issues', issueEvent('opened', INSTALLATION_ID, repository, 8, 'Second report'))).status).toBe(202);
    await table.getByRole('link', { name: 'Second report' }).waitFor({ timeout: 40_000 });
    await screenshot(page, 'monitor-events-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at 390x844 without sideways scrolling', async () => {
    const { page, context } = await newPage(web, PHONE);
    await openSignedIn(page, '/dashboard', web.monitor.url);
    await page.getByText('Recent events').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-dashboard-phone');
    await page.goto('/events?q=report');
    await page.getByRole('link', { name: 'Second report' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-events-phone');
    await context.close();
  });
});
