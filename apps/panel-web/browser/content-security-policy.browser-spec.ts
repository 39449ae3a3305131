// eslint-disable-next-line @nx/enforce-module-boundaries
import { collectCspViolations } from '@shared/testing';
import { DESKTOP, logIn, newPage, startWebPanel, WebPanel } from './support';

/**
 * The Content-Security-Policy the service sends with the built app (issue 29 item 5): the app and
 * Swagger UI run under it without a violation (support.ts checks that after every test), and what
 * the policy is for, refusing a script injected into the page, happens and is seen.
 */
describe('panel-web under its Content-Security-Policy', () => {
  let web: WebPanel;

  beforeAll(async () => {
    web = await startWebPanel({ APP_UPDATE_CHECK: '0' });
  });

  afterAll(async () => {
    await web?.close();
  });

  it('runs the colour-scheme script (allowed by its hash) and the app with no violation', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await logIn(page, { path: '/login?next=%2Fsettings' });
    // Had the inline script's hash not matched, Chromium would have refused it and reported it (support.ts fails the test).
    expect(await page.evaluate('document.documentElement.getAttribute("data-mantine-color-scheme")')).toMatch(/^(light|dark)$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses an injected inline script and reports it', async () => {
    const context = await web.browser.newContext({ viewport: DESKTOP, baseURL: web.panel.url, serviceWorkers: 'block' });
    const seen: string[] = [];
    await collectCspViolations(context, seen);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    await page.evaluate(`(() => { const script = document.createElement('script'); script.textContent = 'window.injected = true'; document.head.append(script); })()`);
    const deadline = Date.now() + 10_000;
    while (!seen.some((line) => line.includes('script-src')) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(seen.join('\n')).toContain('script-src');
    expect(await page.evaluate('window.injected === true')).toBe(false);
    await context.close();
  });

  it('keeps Swagger UI at /docs working under its own policy', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await page.goto('/docs');
    await page.locator('.swagger-ui .info').first().waitFor();
    await page.getByText('/api/auth/login').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
