import { ADMIN_PASSWORD, DESKTOP, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebMonitor, waitInPage, WebMonitor } from './support';

const FIRST_ADMIN = { username: 'owner', password: 'a-long-first-password' };

/**
 * First run: setup refused from a non-loopback host (with the reason and what to set), done from
 * the machine itself, then sign out, the 401 → login → back path, and the login throttle countdown.
 */
describe('repo-monitor console: setup and sign-in', () => {
  let web: WebMonitor;

  beforeAll(async () => {
    web = await startWebMonitor({ admin: false });
  });

  afterAll(async () => {
    await web?.close();
  });

  it('refuses setup to a browser on another machine, saying why and what to set', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP, web.remoteUrl);
    await page.goto('/');
    // No admin yet: the console goes to the login, which sends a first run to the setup.
    await page.waitForURL(/\/setup$/);
    await page.getByText('Setup is only allowed from the server itself').waitFor();
    await page.getByText(/MONITOR_SETUP_ALLOW_REMOTE=true/).waitFor();
    expect(await page.getByRole('button', { name: 'Create and sign in' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-setup-refused-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates the first admin from the machine itself and is signed in without typing the password again', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await page.goto('/');
    await page.waitForURL(/\/setup$/);
    await page.getByRole('heading', { name: 'Create the admin account' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'monitor-setup-phone');
    const username = page.getByLabel('User name');
    await username.fill(FIRST_ADMIN.username);
    await page.getByLabel(/^Password/).fill(FIRST_ADMIN.password);
    await page.getByLabel('Repeat the password').fill('something-else-entirely');
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('Repeat the password').fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    // The shell, behind the drawer on a phone, with who is signed in.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-shell-phone');

    // Setup is over: signed in, /setup leads back into the console; the API refuses a second admin.
    await page.goto('/setup');
    await page.waitForURL(/\/dashboard$/);
    const again = await page.request.post('/api/v1/setup', { data: { username: 'intruder', password: 'another-long-password' } });
    expect(again.status()).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs out, returns to the page after a 401, and writes carry the CSRF token', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await page.goto('/events?kind=push');
    await page.waitForURL(/\/login\?next=%2Fevents%3Fkind%3Dpush$/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-login-desktop');
    await page.getByLabel('Username').fill(FIRST_ADMIN.username);
    await page.getByLabel(/^Password/).fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/events\?kind=push$/);
    expect(page.url()).not.toMatch(/token|csrf/i);

    // The session cookie is HttpOnly: scripts see only the CSRF token.
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/monitor_session/);
    expect(await page.evaluate(() => localStorage.getItem('monitor.csrf'))).toMatch(/.{20,}/);

    // A session revoked on the server while the console is open (cookie gone): the list's next
    // refresh (every 15 s) is a 401, and the person is sent to sign in, then back to where they were.
    await context.clearCookies();
    await page.waitForURL(/\/login\?next=%2Fevents%3Fkind%3Dpush&expired=1$/, { timeout: 30_000 });
    await page.getByText('Your session ended').waitFor();
    await page.getByLabel('Username').fill(FIRST_ADMIN.username);
    await page.getByLabel(/^Password/).fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/events\?kind=push$/);

    // The same when the console is opened again with the session gone. It is closed first, so no
    // request of the open page can be the one answered 401.
    await page.goto('about:blank');
    await context.clearCookies();
    await page.goto('/about');
    await page.waitForURL(/\/login\?next=%2Fabout&expired=1$/);
    await page.getByText('Your session ended').waitFor();
    await page.getByLabel('Username').fill(FIRST_ADMIN.username);
    await page.getByLabel(/^Password/).fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/about$/);

    // Signing out is a write (POST with X-CSRF-Token): it works, and the console is at the login again.
    const logout = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/logout'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect((await logout).status()).toBe(204);
    await page.waitForURL(/\/login/);
    await page.getByText('Signed out').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('monitor.csrf'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the throttle as a countdown after too many failures from this client', async () => {
    // Ten failures from this client (with a name that is not the admin's) block it for a while.
    for (let attempt = 0; attempt < 10; attempt++) {
      await fetch(`${web.monitor.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'guesser', password: `wrong-${attempt}` }) });
    }
    const { page, context } = await newPage(web, DESKTOP);
    await page.goto('/login');
    await page.getByLabel('Username').fill(FIRST_ADMIN.username);
    await page.getByLabel(/^Password/).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The client is blocked until its oldest failure leaves the 15-minute window: minutes and seconds.
    const alert = page.getByRole('alert').filter({ hasText: /Too many failed attempts\. Try again in \d+ min \d+ s\./ });
    await alert.waitFor();
    const left = (text: string) => {
      const match = /in (\d+) min (\d+) s/.exec(text);
      return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
    };
    const first = left((await alert.textContent()) ?? '');
    expect(first).toBeGreaterThan(60);
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    // It counts down.
    await waitInPage(
      page,
      ({ start, pattern }: { start: number; pattern: string }) => {
        const match = new RegExp(pattern).exec(document.body.innerText);
        return match !== null && Number(match[1]) * 60 + Number(match[2]) < start;
      },
      { start: first, pattern: 'in (\\d+) min (\\d+) s' },
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'monitor-login-throttled-desktop');
    await context.close();
  });
});
