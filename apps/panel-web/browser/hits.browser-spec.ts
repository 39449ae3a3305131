import { readFileSync } from 'node:fs';
import { Page } from 'playwright-core';
import { DataSource } from 'typeorm';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { KeywordHit } from '../../panel-api/src/app/keyword-hits/entities/keyword-hit.entity';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin } from '../../panel-api/test/harness';
import { animationsSettled, DESKTOP, newPage, openLoggedIn, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

const HOSTILE = '<img src=x onerror="window.__hacked=1"> coupon inside';

/**
 * Keyword hits: filters kept in the URL and applied by the server, cursor paging, the grouped view,
 * the CSV of the current filter (fetched with the token in the header) and delete with confirm.
 */
describe('panel-web: keyword hits', () => {
  let web: WebPanel;
  let messageId = 1;

  /** Hits as the listener writes them: `deals` (40, alice, chat -1001) and `alerts` (20, bob, chat -1002). */
  async function seed(count: number, fields: Partial<KeywordHit> & Pick<KeywordHit, 'taskName' | 'accountName' | 'chatId'>, text: (index: number) => string): Promise<void> {
    const repository = web.panel.app.get(DataSource).getRepository(KeywordHit);
    const now = Date.now();
    const rows = Array.from({ length: count }, (_, index) =>
      repository.create({
        chatTitle: null,
        messageThreadId: null,
        senderId: '42',
        senderName: 'Eve',
        senderUsername: 'eve',
        ruleIndex: 0,
        messageUrl: null,
        pushChannel: 'telegram',
        pushStatus: 'sent',
        pushError: null,
        ...fields,
        messageId: messageId++,
        messageText: text(index),
        matchedKeyword: 'coupon',
        hitAt: new Date(now - (index + 1) * 60_000),
        createdAt: new Date(now),
      }),
    );
    for (let start = 0; start < rows.length; start += 500) await repository.insert(rows.slice(start, start + 500));
  }

  async function totalHits(query = ''): Promise<number> {
    const token = await loginAsAdmin(web.panel);
    const response = await fetch(`${web.panel.url}/api/keyword-hits?limit=1${query}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { total: number }).total;
  }

  async function status(page: Page, text: string | RegExp): Promise<void> {
    await page.getByRole('status').filter({ hasText: text }).waitFor();
  }

  beforeAll(async () => {
    web = await startWebPanel();
    await seed(40, { taskName: 'deals', accountName: 'alice', chatId: '-1001', chatTitle: 'Deals chat', messageUrl: 'https://t.me/c/1001/1' }, (index) => (index === 0 ? HOSTILE : `deal number ${index}${index % 4 === 0 ? ' voucher' : ''}`));
    await seed(20, { taskName: 'alerts', accountName: 'bob', chatId: '-1002', chatTitle: 'News', pushStatus: 'failed', pushChannel: 'bark', pushError: 'Bark answered 500' }, (index) => `alert ${index}`);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('filters, groups and downloads the CSV on a phone (390x844)', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    await openLoggedIn(web, page, '/hits');
    await page.waitForURL(/\/hits$/);
    await status(page, 'Matching hits: 60');
    // Telegram text is rendered as text, never as HTML.
    await page.getByText(HOSTILE).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'hits-phone');

    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Task', { exact: true }).selectOption('alerts');
    await page.waitForURL(/task=alerts/);
    await status(page, 'Matching hits: 20');
    await page.getByText('Bark answered 500').first().waitFor();

    await page.getByRole('button', { name: 'Filters (1 set)' }).waitFor();
    await page.getByLabel('Task', { exact: true }).selectOption('');
    await page.locator('label', { hasText: 'By chat' }).click();
    await page.waitForURL(/view=chat/);
    await page.getByRole('button', { name: 'Show the 20 hits of News' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'hits-groups-phone');
    await page.getByRole('button', { name: 'Show the 20 hits of News' }).click();
    await page.waitForURL((url) => url.searchParams.get('chat') === '-1002' && !url.searchParams.has('view'));
    await status(page, 'Matching hits: 20');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path()) as string, 'utf8').trim().split(/\r?\n/);
    expect(csv).toHaveLength(21);
    expect(csv.slice(1).every((line) => line.includes('-1002') && line.includes('alerts'))).toBe(true);
    // A first load of a lazily loaded page shows the start-up fallback, without react-router's warning.
    await page.reload();
    await status(page, 'Matching hits: 20');
    expect(warnings.filter((text) => text.includes('HydrateFallback'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages by cursor, searches, and deletes the current filter after confirming (desktop)', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    const urls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) urls.push(request.url());
    });
    await openLoggedIn(web, page, '/hits');
    await status(page, 'Matching hits: 60');
    expect(await page.getByRole('row').count()).toBe(51);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    await page.getByText('deal number 39', { exact: true }).waitFor();
    expect(await page.getByRole('row').count()).toBe(11);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.waitForURL((url) => !url.searchParams.has('cursor'));
    await page.getByText(HOSTILE).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'hits-desktop');

    await page.getByLabel('Search').fill('voucher');
    await page.waitForURL(/q=voucher/);
    await status(page, 'Matching hits: 9');

    await page.locator('label', { hasText: 'By account' }).click();
    await page.getByRole('button', { name: 'Show the 9 hits of alice' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'hits-groups-desktop');
    await page.getByRole('button', { name: 'Show the 9 hits of alice' }).click();
    await page.waitForURL((url) => url.searchParams.get('account') === 'alice' && url.searchParams.get('q') === 'voucher');

    await page.getByRole('button', { name: 'Delete these hits' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete the matching keyword hits (9)?').waitFor();
    // The dialog fades in; the screenshot waits for it to settle.
    await animationsSettled(page);
    await screenshot(page, 'hits-delete-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await totalHits()).toBe(60);

    await page.getByRole('button', { name: 'Delete these hits' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Keyword hits deleted: 9').waitFor();
    await page.getByText('No hit matches these filters').waitFor();
    expect(await totalHits()).toBe(51);
    expect(await totalHits('&q=voucher')).toBe(0);
    // No request carried the token in its URL (the CSV included).
    expect(urls.filter((url) => /token=/i.test(url))).toEqual([]);
    // The Chinese strings load when Chinese is picked (English readers never download them).
    await page.getByRole('banner').getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '关键词命中' }).waitFor();
    await page.getByText('没有符合筛选条件的命中').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says "10,000+" when the total is capped and asks before deleting everything', async () => {
    await seed(10_001, { taskName: 'flood', accountName: 'carol', chatId: '-1003' }, (index) => `flood ${index}`);
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/hits');
    await status(page, 'Matching hits: 10,000+');
    await page.getByText('10,000+ in total').waitFor();
    await page.getByRole('button', { name: 'Delete all hits' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete every keyword hit (10,000+)?').waitFor();
    await dialog.getByText(/No filter is set/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await totalHits('&task=flood')).toBe(10_000);
    expect(errors).toEqual([]);
    await context.close();
  });
});
