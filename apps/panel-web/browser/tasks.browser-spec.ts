import { Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin } from '../../panel-api/test/harness';
import { animationsSettled, DESKTOP, newPage, openLoggedIn, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WebPanel } from './support';

/**
 * Tasks: a task made through the editor (schedule preview from the service in its time zone), run
 * from the page with its step log arriving while the run goes, bulk disable and delete.
 */
describe('panel-web: tasks', () => {
  let web: WebPanel;
  let token: string;

  const api = async (path: string, method = 'GET', body?: unknown) => {
    const response = await fetch(`${web.panel.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
  };

  beforeAll(async () => {
    web = await startWebPanel();
    token = await loginAsAdmin(web.panel);
    const alice = web.telegram.createUser({ phone: '+31 600 000 201', firstName: 'Alice' });
    // Alice's dialog list, for the editor's chat picker: a group and a channel she is in.
    web.telegram.addGroup({ id: '-1001000000201', title: 'Daily check-in group', username: 'daily_checkin' });
    web.telegram.addGroup({ id: '-1001000000202', title: 'Deals channel', type: 'channel' });
    web.telegram.joinChat(alice.id, '-1001000000201');
    web.telegram.joinChat(alice.id, '-1001000000202');
    web.telegram.addBot({
      username: 'checkin_bot',
      onMessage: (text) => (text === '/checkin' ? { text: 'Checked in! +10 points' } : text === '/bye' ? { text: '<b>See you</b>' } : { text: `unknown: ${text}` }),
    });
    await api('/api/accounts/import-session', 'POST', { account_name: 'alice', session_string: web.telegram.issueSession(alice.id) });
    await api('/api/config/settings', 'PUT', { timezone: 'Asia/Shanghai' });
  });

  afterAll(async () => {
    await web?.close();
  });

  async function expectClean(page: Page, shot?: string): Promise<void> {
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (shot) await screenshot(page, shot);
  }

  /** New task → four steps → saved; returns on the list. */
  async function createThroughEditor(page: Page, name: string, shots: string | undefined): Promise<void> {
    await page.getByRole('link', { name: 'New task' }).first().click();
    await page.waitForURL(/\/tasks\/new$/);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByText('Choose at least one account').waitFor();
    await page.getByLabel(/^Name/).fill(name);
    await page.getByRole('combobox', { name: 'Accounts' }).click();
    await page.getByRole('option', { name: 'alice' }).click();
    await page.keyboard.press('Escape');
    await expectClean(page, shots && `${shots}-editor-basics`);
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    await page.getByLabel(/^When/).fill('30 7 * * 1-5');
    const preview = page.getByText('Next runs (Asia/Shanghai)');
    await preview.waitFor();
    // Five weekday mornings at 07:30 in the configured zone, as the service's scheduler computes them.
    await page.locator('ol li', { hasText: / 07:30:00$/ }).nth(4).waitFor();
    await expectClean(page, shots && `${shots}-editor-schedule`);
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    // The chat picker lists alice's chats: choosing one fills the chat id and its label (issue 33 item 8).
    const picker = page.getByRole('combobox', { name: 'Choose from the chats of alice' });
    await picker.click();
    await picker.fill('check');
    await page.getByRole('option', { name: /Daily check-in group/ }).waitFor();
    await animationsSettled(page);
    await expectClean(page, shots && `${shots}-editor-chat-picker`);
    await page.getByRole('option', { name: /Daily check-in group/ }).click();
    expect(await page.getByRole('textbox', { name: /^Chat/ }).inputValue()).toBe('-1001000000201');
    expect(await page.getByLabel('Label (optional)').inputValue()).toBe('Daily check-in group');
    // A chat not in the list is still typed by hand.
    await page.getByRole('textbox', { name: /^Chat/ }).fill('@checkin_bot');
    await page.getByLabel('Label (optional)').fill('');
    await page.getByLabel('Text to send').fill('/checkin');
    await page.getByRole('button', { name: 'Add action' }).click();
    // The second step waits, so the first reply is in the log while the run still goes.
    await page.getByLabel('Text to send').nth(1).fill('/bye');
    await page.getByLabel(/^Wait before/).nth(1).fill('5');
    await expectClean(page, shots && `${shots}-editor-chats`);
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    await page.getByLabel('Notify me when a run fails').waitFor();
    await page.getByRole('button', { name: 'Save task' }).click();
    await page.waitForURL(/\/tasks$/);
    await page.getByRole('link', { name }).waitFor();
  }

  /** Run now from the list: the step log arrives while the run is going, then the run finishes. */
  async function runAndWatch(page: Page, name: string, shot: string | undefined): Promise<void> {
    // One click starts the run and opens its live log (issue 33 item 2).
    await page.getByRole('button', { name: `Run now: ${name}` }).click();
    const drawer = page.getByRole('dialog', { name: `Run: ${name}` });
    const liveLog = drawer.getByRole('list', { name: 'Step log' });
    await liveLog.getByText('Answer: Checked in! +10 points').waitFor({ timeout: 30_000 });
    // Still running (the second step waits 5 s): the line came in live, not with the finished run.
    expect(await drawer.getByText('Running', { exact: true }).count()).toBeGreaterThan(0);
    await drawer.getByRole('button', { name: 'Cancel run' }).waitFor();
    if (shot) await expectClean(page, shot);
    await drawer.getByText('Finished', { exact: true }).waitFor({ timeout: 30_000 });
    // Bot text is shown as text.
    await liveLog.getByText('<b>See you</b>').first().waitFor();
    expect(await page.locator('b', { hasText: 'See you' }).count()).toBe(0);
    await drawer.getByRole('listitem').filter({ hasText: 'Success' }).first().waitFor();
    await expectClean(page);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  }

  it('creates a task in the editor, runs it with the live log, bulk-disables and deletes (desktop)', async () => {
    const { page, context, errors } = await newPage(web, DESKTOP);
    await openLoggedIn(web, page, '/tasks');
    await page.waitForURL(/\/tasks$/);
    await page.getByText('No tasks yet').waitFor();
    await expectClean(page, 'tasks-empty-desktop');

    await createThroughEditor(page, 'daily check-in', 'tasks');
    await runAndWatch(page, 'daily check-in', 'tasks-run-desktop');
    await page.getByText('Success').first().waitFor();

    // Clone, then run the copy and cancel it while its second step waits.
    await page.getByRole('button', { name: 'More actions for daily check-in' }).click();
    await page.getByRole('menuitem', { name: 'Clone' }).click();
    const cloneDialog = page.getByRole('dialog', { name: 'Clone “daily check-in”' });
    await cloneDialog.getByLabel('Name of the copy').fill('early check-in');
    await cloneDialog.getByRole('button', { name: 'Clone' }).click();
    await page.getByRole('link', { name: 'early check-in' }).waitFor();
    await page.getByRole('button', { name: 'Run now: early check-in' }).click();
    const drawer = page.getByRole('dialog', { name: 'Run: early check-in' });
    await drawer.getByRole('list', { name: 'Step log' }).getByText('Answer: Checked in! +10 points').waitFor({ timeout: 30_000 });
    await drawer.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('dialog', { name: 'Cancel the run of “early check-in”?' }).getByRole('button', { name: 'Cancel run' }).click();
    await drawer.getByText('Cancelled', { exact: true }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await api('/api/sign-tasks/early%20check-in', 'DELETE');

    await api('/api/sign-tasks', 'POST', { name: 'weekly', account_name: 'alice', sign_at: '0 9 * * 1', execution_mode: 'fixed', chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/checkin' }] }] });
    await api('/api/sign-tasks', 'POST', { name: 'deals listener', account_name: 'alice', execution_mode: 'listen', chats: [{ chat_id: '@checkin_bot', actions: [{ action: 8, keywords: ['deal'] }] }] });
    await page.reload();
    await page.getByRole('link', { name: 'weekly' }).waitFor();
    await expectClean(page, 'tasks-desktop');
    // A listen task is not offered a run the service would refuse; its row says why.
    await page.getByText('Runs by itself while enabled').waitFor();
    expect(await page.getByRole('button', { name: 'Run now: deals listener' }).count()).toBe(0);
    // Its row shows the listener's health; the scheduled ones their next run.
    await page.getByText(/^(Listening|Starting|Not listening|Listener failing)$/).first().waitFor();
    await page.getByText('Weekdays at 07:30').first().waitFor();

    // Search and filter.
    await page.getByLabel('Search tasks').fill('deal');
    await page.getByRole('link', { name: 'weekly' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'deals listener' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Type').selectOption('listen');
    await page.getByRole('link', { name: 'daily check-in' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Clear filters' }).click();

    // Bulk disable two tasks.
    await page.getByRole('checkbox', { name: 'Select daily check-in' }).check();
    await page.getByRole('checkbox', { name: 'Select weekly' }).check();
    await page.getByText('2 selected').first().waitFor();
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByText('Disable: 2 done, 0 failed').waitFor();
    const tasks = (await api('/api/sign-tasks')) as { tasks: Array<{ name: string; enabled: boolean }> };
    expect(Object.fromEntries(tasks.tasks.map((task) => [task.name, task.enabled]))).toEqual({ 'daily check-in': false, weekly: false, 'deals listener': true });

    // Bulk delete asks first; cancelling keeps the task.
    await page.getByRole('checkbox', { name: 'Select daily check-in' }).uncheck();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 1 task?' });
    await confirm.waitFor();
    await animationsSettled(page); // the dialog's open transition (colours are mid-fade before)
    expect(await seriousAxeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'weekly' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete 1 task?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('link', { name: 'weekly' }).waitFor({ state: 'detached' });
    await page.getByText('Delete: 1 done, 0 failed').waitFor();
    const left = (await api('/api/sign-tasks')) as { tasks: Array<{ name: string }> };
    expect(left.tasks.map((task) => task.name).sort()).toEqual(['daily check-in', 'deals listener']);

    // Edit the listen task: its rule loads into the editor; leaving with a change asks first.
    await page.getByRole('link', { name: 'deals listener' }).click();
    await page.getByRole('heading', { name: 'Edit “deals listener”' }).waitFor();
    await page.getByRole('button', { name: /Chats and listen rules/ }).click();
    await page.getByText('Keyword listen rule').waitFor();
    expect(await page.getByLabel('Keywords').inputValue()).toBe('deal');
    await page.getByLabel('On a hit').selectOption('continue');
    await page.getByRole('button', { name: 'Add follow-up' }).click();
    await expectClean(page, 'tasks-editor-listen');
    await page.getByRole('link', { name: 'History' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/tasks/${encodeURIComponent('deals listener')}`);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates and runs a task at 390x844 without sideways scrolling', async () => {
    const { page, context, errors } = await newPage(web, PHONE);
    await openLoggedIn(web, page, '/tasks');
    await page.waitForURL(/\/tasks$/);
    await page.getByRole('heading', { name: 'Tasks', exact: true }).waitFor();
    await page.getByRole('link', { name: 'New task' }).first().waitFor();
    await page.getByRole('status').waitFor({ state: 'detached' });
    await expectClean(page, 'tasks-phone');
    await createThroughEditor(page, 'phone check-in', 'tasks-phone');
    await runAndWatch(page, 'phone check-in', 'tasks-run-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says a failed run in Chinese in the run drawer at 390x844: the error by its code, the service\'s English folded away', async () => {
    web.telegram.addBot({ username: 'plain_bot', onMessage: () => ({ text: 'hello, no buttons here' }) });
    await api('/api/sign-tasks', 'POST', {
      name: 'zh-button',
      account_name: 'alice',
      sign_at: '0 8 * * *',
      execution_mode: 'fixed',
      retry_count: 0,
      notify_on_failure: false,
      chats: [{ chat_id: '@plain_bot', actions: [{ action: 1, text: '/start' }, { action: 3, text: 'Check in' }] }],
    });
    const { page, context, errors } = await newPage(web, PHONE);
    await openLoggedIn(web, page, '/tasks');
    await page.evaluate(() => localStorage.setItem('ui.language', 'zh-CN'));
    await page.reload();
    await page.getByRole('button', { name: '立即运行：zh-button' }).click();
    const drawer = page.getByRole('dialog', { name: '运行：zh-button' });
    const sentence = '@plain_bot 中最近的消息里没有按钮“Check in”';
    // The live status, its step log and the recent run all say the error in Chinese.
    await drawer.getByText(`找不到按钮：${sentence}`).waitFor({ timeout: 30_000 });
    await drawer.getByRole('list', { name: '步骤日志' }).getByText(sentence).waitFor();
    // The second: the recent run's message (the first is the step log's line; its own steps are folded away).
    await drawer.getByText(sentence, { exact: true }).nth(1).waitFor();
    await drawer.getByText('服务记录的原文').first().waitFor();
    expect(await drawer.getByText('No recent message in @plain_bot has a button "Check in"').first().isVisible()).toBe(false);
    await animationsSettled(page);
    await expectClean(page, 'tasks-run-drawer-zh-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
