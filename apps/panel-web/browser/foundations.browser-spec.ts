import { DESKTOP, enableTotp, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

/** The login (with TOTP), the return to the page after a 401, the About page, the shell on a phone. */
describe('panel-web: login and shell', () => {
  let web: WebPanel;
  let totpSecret: string;

  beforeAll(async () => {
    web = await startWebPanel();
    totpSecret = await enableTotp(web.panel);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('logs in with the TOTP code and lands on the page it was sent from', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await page.goto('/about');
    await page.waitForURL(/\/login\?next=%2Fabout/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'login-desktop');
    await logIn(page, { totpSecret, path: page.url() });
    await page.waitForURL(/\/about$/);
    await page.getByRole('heading', { name: 'About', level: 2 }).waitFor();
    // About holds the version; memory and the runtime status have their own page.
    await page.getByRole('link', { name: 'Open the system status' }).click();
    await page.waitForURL(/\/system$/);
    await page.getByRole('heading', { name: 'System status', level: 2 }).waitFor();
    await page.getByText('Runtime status').waitFor();
    // Runtime components and their details in words, not the service's keys.
    const scheduler = page.getByRole('region', { name: 'Scheduler', exact: true });
    await scheduler.getByText('Scheduler lock').waitFor();
    await scheduler.getByText('Held by this instance').waitFor();
    await page.getByRole('region', { name: 'Automatic backup', exact: true }).getByText('Every (hours)').waitFor();
    const runtimeText = await page.locator('main').innerText();
    for (const raw of ['interval_hours', 'auto_backup', 'sign_jobs', '{}', '"enabled"']) expect(runtimeText).not.toContain(raw);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'about-desktop');

    // The token is never in a URL, and a revoked token (401) sends the person back to log in.
    expect(page.url()).not.toMatch(/token/i);
    await page.evaluate(() => sessionStorage.setItem('panel.token', 'not-a-valid-token'));
    await page.reload();
    await page.waitForURL(/\/login\?next=%2Fsystem&expired=1/);
    await page.getByText('Your session ended').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at 390x844 with the navigation in a drawer and no sideways scrolling', async () => {
    const { page, context } = await newPage(web, PHONE);
    await logIn(page, { totpSecret, path: '/login?next=%2Fabout' });
    await page.waitForURL(/\/about$/);
    await page.getByRole('heading', { name: 'About', level: 2 }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'about-phone');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'About' }).click();
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    await context.close();
  });
});
