import {
  DESKTOP,
  INSTALLATION_ID,
  installationCreated,
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

/** The repositories page against the real service: an installation's repository, its switches, archive/activate, an external repository through the PAT, stop watching. */
describe('repo-monitor console: repositories', () => {
  let web: WebMonitor;
  const repository = { full_name: 'acme/api', id: 0 };

  beforeAll(async () => {
    web = await startWebMonitor({ externalPat: 'ghp_browser_external' });
    web.github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: [repository.full_name] });
    repository.id = Number(web.github.repositories.get(repository.full_name)?.id);
    web.github.addRepository('outside/lib');
    expect((await sendDelivery(web.monitor.url, 'installation', installationCreated(INSTALLATION_ID, 'acme', [repository]))).status).toBe(202);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('toggles a switch that survives a reload, archives and activates, adds an external repository and stops watching it after a confirmation', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openSignedIn(page, '/repositories', web.monitor.url);
    await page.waitForURL(/\/repositories$/);
    const table = page.getByRole('table', { name: 'Watched repositories, by name' });
    const row = table.getByRole('row', { name: /acme\/api/ });
    await row.waitFor();
    await row.getByText('GitHub App').waitFor();
    await row.getByText('Active').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A notification switch is saved and is still so after a reload.
    const releases = () => page.getByRole('checkbox', { name: 'Notify about Releases in acme/api' });
    const before = await releases().isChecked();
    await releases().click();
    await page.getByText('Notifications for acme/api saved.').waitFor();
    await page.reload();
    await releases().waitFor();
    expect(await releases().isChecked()).toBe(!before);
    const stored = (await (await page.request.get(`/api/v1/repositories?q=acme`)).json()) as { items: { notify: Record<string, boolean> }[] };
    expect(stored.items[0].notify['releases']).toBe(!before);

    // Archive, then activate again.
    await page.getByRole('button', { name: 'Archive acme/api' }).click();
    await page.getByText('acme/api archived: no notifications until activated.').waitFor();
    await row.getByText('Archived').waitFor();
    await page.getByRole('button', { name: 'Activate acme/api' }).click();
    await page.getByText('acme/api is active again.').waitFor();
    await row.getByText('Active').waitFor();

    // An external public repository through the local GitHub: a missing one shows the API's message, then one is added.
    await page.getByText('0 of 20 external repositories', { exact: false }).waitFor();
    const name = page.getByRole('textbox', { name: 'Repository (owner/name)' });
    await name.fill('outside/missing');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await waitFor(async () => (await name.getAttribute('aria-invalid')) === 'true', 20_000);
    await name.fill('outside/lib');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Now watching outside/lib.').waitFor();
    const external = table.getByRole('row', { name: /outside\/lib/ });
    await external.getByText('External').waitFor();
    await page.getByText('1 of 20 external repositories', { exact: false }).waitFor();

    // The source filter goes into the URL.
    await page.getByLabel('Source').selectOption({ label: 'External' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/source=external/);
    await waitFor(async () => (await table.getByRole('row', { name: /acme\/api/ }).count()) === 0, 20_000);
    await external.waitFor();
    await screenshot(page, 'monitor-repositories-desktop');

    // Stop watching asks first, naming the repository; cancelling changes nothing.
    await page.getByRole('button', { name: 'Stop watching outside/lib' }).click();
    let dialog = page.getByRole('dialog', { name: 'Stop watching outside/lib?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await external.getByText('Active').waitFor();
    await page.getByRole('button', { name: 'Stop watching outside/lib' }).click();
    dialog = page.getByRole('dialog', { name: 'Stop watching outside/lib?' });
    await dialog.getByRole('button', { name: 'Stop watching' }).click();
    await page.getByText('Stopped watching outside/lib.').waitFor();
    await external.getByText('Not watched').waitFor();
    await page.getByText('0 of 20 external repositories', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits 390x844 without sideways scrolling and passes axe-core', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openSignedIn(page, '/repositories', web.monitor.url);
    await page.getByRole('heading', { name: 'Repositories', level: 2 }).waitFor();
    await page.getByRole('link', { name: /acme\/api/ }).waitFor();
    await page.getByRole('checkbox', { name: 'Notify about Issues in acme/api' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'monitor-repositories-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
