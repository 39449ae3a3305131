import { DESKTOP, freshTotpCode, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, TEST_ADMIN_PASSWORD, WebPanel } from './support';

/** Profile: TOTP turned on from the page (QR and secret), then a login that needs the code. */
describe('panel-web: profile', () => {
  let web: WebPanel;

  beforeAll(async () => {
    web = await startWebPanel();
  });

  afterAll(async () => {
    await web?.close();
  });

  it('turns TOTP on with the QR/secret and the next login asks for the code', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await logIn(page, { path: '/login?next=%2Fprofile' });
    await page.waitForURL(/\/profile$/);
    await page.getByText('You are logged in as admin.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'profile-desktop');
    const totpCard = page.locator('form').filter({ hasText: 'Set up' });
    await totpCard.getByLabel(/^Current password/).fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Set up' }).click();
    await page.getByRole('img', { name: 'QR code of the TOTP secret' }).waitFor();
    const secret = (await page.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    await page.getByLabel('Six-digit code').fill(freshTotpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-factor authentication is on').first().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await logIn(page, { totpSecret: secret, path: '/login?next=%2Fprofile' });
    await page.waitForURL(/\/profile$/);
    await page.getByText('On', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { page, context } = await newPage(web, PHONE);
    await page.goto('/login?next=%2Fprofile');
    await page.getByLabel('Username').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'login-phone');
    await context.close();
  });
});
