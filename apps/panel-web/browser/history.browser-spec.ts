import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SignLog } from '../../panel-api/src/app/runs/entities/sign-log.entity';
import { DESKTOP, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

/** History: runs of every task filtered by the server (filters kept in the URL), with the step log. */
describe('panel-web: history', () => {
  let web: WebPanel;

  beforeAll(async () => {
    web = await startWebPanel();
    const logs = web.panel.app.get(DataSource).getRepository(SignLog);
    const now = Date.now();
    await logs.save(
      Array.from({ length: 30 }, (_, index) =>
        logs.create({
          runId: randomUUID(),
          taskName: index % 3 === 0 ? 'weekly' : 'daily-check',
          accountName: index % 2 === 0 ? 'alice' : 'bob',
          success: index % 5 !== 0,
          state: 'finished',
          failureCategory: index % 5 === 0 ? 'flood_wait' : 'none',
          message: index % 5 === 0 ? `<script>alert(1)</script> flood wait ${index}` : `signed in ${index}`,
          trigger: 'schedule',
          attempts: 1,
          createdAt: new Date(now - index * 60_000),
        }),
      ),
    );
  });

  afterAll(async () => {
    await web?.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('pages and filters on the server and opens a run (%s)', async (name, viewport) => {
    const { page, context, errors } = await newPage(web, viewport);
    await logIn(page, { path: '/login?next=%2Fhistory%3Fstatus%3Dfailure%26failure_category%3Dflood_wait' });
    await page.waitForURL(/\/history\?status=failure/);
    await page.getByText('flood wait 25').first().waitFor();
    await page.getByText('6 in total').waitFor();
    // Categories, triggers and states are words, not the API's codes.
    expect(await page.getByLabel('Failure category').locator('option:checked').innerText()).toBe('Flood wait');
    await page.getByText('Failure · Flood wait').first().waitFor();
    expect(await page.locator('script', { hasText: 'alert(1)' }).count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, `history-${name}`);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('30 in total').waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await page.getByRole('button', { name: /^Step log of/ }).first().click();
    await page.getByRole('dialog').getByText('Scheduled · Finished').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
