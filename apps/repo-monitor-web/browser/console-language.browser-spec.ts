// eslint-disable-next-line @nx/enforce-module-boundaries
import { adminHeaders, loginAdmin } from '../../repo-monitor/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { repositoryPayload } from '../../repo-monitor/test/github-fixtures';
import { DESKTOP, newPage, PHONE, scrollsSideways, sendDelivery, seriousAxeViolations, signIn, startWebMonitor, waitFor, WebMonitor } from './support';

/**
 * Text the service writes (audit actions, routing explanations, digest titles and fallback reasons)
 * read in Chinese in the console: the console words it from codes and fields, so no English sentence
 * of the service and no API field name shows. Axe-clean at 1280 and 390 px.
 */
describe('repo-monitor console: server text in the person\'s language', () => {
  let web: WebMonitor;

  beforeAll(async () => {
    web = await startWebMonitor();
    const payload = {
      action: 'opened',
      repository: repositoryPayload('acme/lang', 9931),
      issue: { number: 5, title: 'Crash on start', state: 'open', html_url: 'https://github.com/acme/lang/issues/5', user: { login: 'alice' }, labels: [], updated_at: new Date().toISOString() },
      sender: { login: 'alice' },
    };
    expect((await sendDelivery(web.monitor.url, 'issues', payload)).status).toBe(202);
    await waitFor(() => web.telegram.messages.length > 0, 20_000);
    const session = await loginAdmin(web.monitor);
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${web.monitor.url}${path}`, { method, headers: { ...adminHeaders(session), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/v1/digests', { period: 'daily' })).status).toBe(201);
    const channels = (await (await fetch(`${web.monitor.url}/api/v1/notification-channels`, { headers: adminHeaders(session) })).json()) as { items: Array<{ id: string }> };
    expect((await post('/api/v1/notification-templates', { channel_id: channels.items[0].id, event_kind: 'issues', body: '<b>{{title}}</b>' }, 'PUT')).status).toBe(200);
    // Once a rule exists, an issue without its label goes nowhere: the routing says which field did not match.
    expect((await post('/api/v1/notification-rules', { name: 'Only bugs', match: { labels_any: ['bug'] }, route: { channel_ids: [channels.items[0].id] } })).status).toBe(201);
    const eventsBefore = ((await (await fetch(`${web.monitor.url}/api/v1/events?per_page=1`, { headers: adminHeaders(session) })).json()) as { total: number }).total;
    const unlabelled = { ...payload, issue: { ...payload.issue, number: 6, title: 'Typo in docs', html_url: 'https://github.com/acme/lang/issues/6' } };
    expect((await sendDelivery(web.monitor.url, 'issues', unlabelled)).status).toBe(202);
    await waitFor(async () => ((await (await fetch(`${web.monitor.url}/api/v1/events?per_page=1`, { headers: adminHeaders(session) })).json()) as { total: number }).total > eventsBefore, 20_000);
  });

  afterAll(async () => {
    await web?.close();
  });

  it('shows the audit log, where an event went and the digests in Chinese', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await signIn(page, { path: '/login?next=%2Faudit-log' });
    await page.evaluate(() => localStorage.setItem('ui.language', 'zh-CN'));
    await page.reload();

    await page.getByRole('heading', { name: '审计日志' }).waitFor();
    await page.getByRole('cell', { name: '保存消息模板' }).waitFor();
    await page.getByText('渠道 Telegram (from environment)').first().waitFor();
    await page.getByText('部分: 消息').waitFor();
    await page.getByText('启动时按环境变量创建了管理员').waitFor();
    await page.getByText('周期: 每日摘要').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/notification_template|channel_id|rule_id|created by|daily/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    // Loaded at phone size, so what is checked is the page a phone shows (not the sidebar folding away).
    await page.reload();
    await page.getByRole('heading', { name: '审计日志' }).waitFor();
    await page.getByText('保存消息模板').first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);

    await page.goto('/events');
    // The digest's event is titled by the service in English: the console says it in Chinese.
    await page.getByRole('cell', { name: /^每日摘要 \d{4}-\d{2}-\d{2}$/ }).waitFor();
    await page.getByRole('button', { name: /^发往何处：.*Crash on start/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('按各渠道的事件类型过滤（没有启用的规则）：发送到 Telegram (from environment)。').waitFor();
    expect(await dialog.innerText()).not.toMatch(/By the channels|sent to/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^发往何处：.*Typo in docs/ }).click();
    await dialog.getByText('未发送：没有规则匹配。').waitFor();
    await dialog.getByText('未匹配：“含任一标签”不符').waitFor();
    expect(await dialog.innerText()).not.toMatch(/labels_any|Not sent|is on the event/);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto('/ai?tab=digests');
    await page.getByRole('button', { name: /^每日摘要 \d{4}-\d{2}-\d{2}$/ }).click();
    // AI is off here: the template was used, and the reason is said in Chinese.
    await page.getByText('使用模板的原因：AI 摘要已关闭').waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/Daily digest \d|AI digest is switched off/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
