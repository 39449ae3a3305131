import { randomUUID } from 'node:crypto';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { RunHistoryService } from '../../panel-api/src/app/runs/run-history.service';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SignLog } from '../../panel-api/src/app/runs/entities/sign-log.entity';
import { DataSource } from 'typeorm';
import { DESKTOP, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

/** The dashboard: server-counted figures, the chart, and the live sign history over fetch-based SSE. */
describe('panel-web: dashboard', () => {
  let web: WebPanel;

  beforeAll(async () => {
    web = await startWebPanel();
    // Runs over the last days, so the chart has bars to draw.
    const logs = web.panel.app.get(DataSource).getRepository(SignLog);
    const now = Date.now();
    await logs.save(
      Array.from({ length: 40 }, (_, index) =>
        logs.create({
          runId: randomUUID(),
          taskName: 'daily-check',
          accountName: 'alice',
          // Every verdict of the bot's answer: success, already done, failed (refused), unconfirmed.
          success: index % 4 < 2,
          state: 'finished',
          failureCategory: ['none', 'none', 'bot_refused', 'unconfirmed'][index % 4],
          verdict: ['success', 'already_done', 'failed', 'unconfirmed'][index % 4],
          verdictText: ['签到成功', '今日已签到', '签到失败', null][index % 4],
          message: 'ok',
          trigger: 'schedule',
          attempts: 1,
          createdAt: new Date(now - (index % 10) * 86_400_000 - 60_000),
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
  ])('shows the figures and a streamed run as it happens (%s)', async (name, viewport) => {
    const { page, context, errors } = await newPage(web, viewport);
    // The stream must carry the token in the Authorization header, never in the URL.
    const streamRequests: { url: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/events/')) streamRequests.push({ url: request.url(), authorization: request.headers()['authorization'] });
    });
    await logIn(page);
    await page.waitForURL(/\/dashboard$/);
    await page.getByText('Successes today').waitFor();
    // The chart draws its bars, and screen readers get its figures as a table.
    await page.locator('figure svg rect').first().waitFor();
    const table = page.getByRole('table', { name: /Sign-ins per day/ });
    expect(await table.getByRole('row').count()).toBe(15);
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Day', 'Success', 'Already done', 'Failure', 'Unconfirmed', 'Keyword hits']);
    // The seeded days hold every verdict between them: the bars are drawn in the four verdict colours.
    const fills = await page.locator('figure svg rect').evaluateAll((rects) => [...new Set(rects.map((rect) => rect.getAttribute('fill')))]);
    expect(fills.sort()).toEqual(['var(--mantine-color-orange-4)', 'var(--mantine-color-red-7)', 'var(--mantine-color-teal-3)', 'var(--mantine-color-teal-7)']);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const runId = randomUUID();
    web.panel.app.get(RunHistoryService).publish({
      run_id: runId,
      account_name: 'alice',
      task_name: 'daily-check',
      success: false,
      message: '<b>not bold</b> flood wait 30 s',
      created_at: new Date().toISOString(),
      failure_category: 'flood_wait',
    });
    await page.getByText('daily-check · alice').waitFor();
    // A second run is a row of its own (each row is keyed by the event's id).
    web.panel.app.get(RunHistoryService).publish({
      run_id: randomUUID(),
      account_name: 'bob',
      task_name: 'weekly-check',
      success: true,
      message: 'signed in',
      created_at: new Date().toISOString(),
      failure_category: 'none',
    });
    await page.getByText('weekly-check · bob').waitFor();
    expect(await page.getByText('daily-check · alice').count()).toBe(1);
    // Telegram text is shown as text.
    await page.getByText('<b>not bold</b> flood wait 30 s').waitFor();
    expect(await page.locator('b', { hasText: 'not bold' }).count()).toBe(0);
    expect(streamRequests.length).toBeGreaterThan(0);
    for (const request of streamRequests) {
      expect(request.url).not.toMatch(/token=/);
      expect(request.authorization).toMatch(/^Bearer /);
    }
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-${name}`);
    // The chart by verdict, in view.
    await page.locator('figure').scrollIntoViewIfNeeded();
    await screenshot(page, `dashboard-chart-${name}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
