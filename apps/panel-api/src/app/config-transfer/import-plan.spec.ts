import type { SettingsService } from '../settings/settings.service';
import type { SettingsPatch } from '../settings/settings.types';
import type { SignTask } from '../sign-tasks/sign-task.types';
import { planImport, pythonRegexToJs } from './import-plan';
import { readMonitor } from './monitor-import';
import { exportTaskEntries } from './reference-export';
import { planSettingsImport } from './settings-transfer';
import { migrateLegacySignConfig, readSignEntry } from './sign-import';
import { ItemReport } from './import-report';

function settingsWith(stored: Partial<Record<keyof SettingsPatch, unknown>>): SettingsService {
  return { stored: (name: keyof SettingsPatch) => stored[name] ?? null } as unknown as SettingsService;
}

const entry = {
  account_name: 'a1',
  account_names: ['a1'],
  sign_at: '08:00',
  random_seconds: '30',
  retry_count: '2',
  range_start: '',
  range_end: '',
  chats: [
    {
      chat_id: '-1001',
      sender_filter: 'bot_a',
      message_thread_id: '7',
      action_interval: 1.5,
      delete_after: 0,
      actions: [
        { action: '8', keywords: 'one\ntwo', push_channel: 'server_chan', server_chan_send_key: 'SCTkey', forward_message_thread_id: null, continue_action_interval: 2 },
        { action: 8, keywords: ['x'], sender_filter: 'own', push_channel: 'continue', continue_actions: [{ action: 1, text: 'hi', continue_on_error: true }] },
      ],
      mystery: 1,
    },
  ],
};

describe('reading a sign entry of the reference panel', () => {
  it('takes string numbers, renames fields, moves the chat sender_filter to each rule, and lists what it fills and drops', () => {
    const read = readSignEntry('watch@a1', entry);
    expect(read).toMatchObject({ name: 'watch', accounts: ['a1'] });
    expect(read.task).toEqual({
      name: 'watch',
      sign_at: '08:00',
      random_seconds: 30,
      retry_count: 2,
      execution_mode: 'fixed',
      notify_on_success: true,
      notify_on_failure: true,
      enabled: true,
      sign_interval: 1,
      chats: [
        {
          chat_id: -1001,
          message_thread_id: 7,
          action_interval: 2,
          actions: [
            { action: 8, keywords: ['one', 'two'], push_channel: 'server_chan', server_chan_key: 'SCTkey', sender_filter: 'bot_a' },
            { action: 8, keywords: ['x'], sender_filter: 'own', push_channel: 'continue', continue_actions: [{ action: 1, text: 'hi' }] },
          ],
        },
      ],
    });
    const { report } = read;
    expect(report.problems).toEqual([]);
    expect(report.mapped).toEqual(expect.arrayContaining(['chats[0].actions[0].server_chan_send_key → server_chan_key', 'range_start → range_start (empty, left out)', 'random_seconds → random_seconds 30']));
    expect(report.defaults).toEqual(expect.arrayContaining([expect.stringContaining('name = "watch"'), expect.stringContaining('execution_mode = "fixed"'), expect.stringContaining('continue_chat_id = "the chat of the hit"')]));
    expect(report.unmapped.map((field) => field.field)).toEqual(
      expect.arrayContaining(['chats[0].delete_after', 'chats[0].mystery', 'chats[0].actions[0].continue_action_interval', 'chats[0].actions[1].continue_actions[0].continue_on_error']),
    );
  });

  it('refuses what has no equivalent or cannot be read, and names the place', () => {
    const plugin = readSignEntry('p', { sign_at: '08:00', chats: [{ chat_id: 1, actions: [{ action: 99, plugin_name: 'x' }] }] });
    expect(plugin.report.problems).toEqual([expect.stringContaining('action 99 (custom plugin "x") has no equivalent')]);
    const badChat = readSignEntry('b', { sign_at: '08:00', chats: [{ chat_id: 'has spaces', actions: [] }] });
    expect(badChat.report.problems).toEqual([expect.stringContaining('chats[0].chat_id "has spaces"')]);
    expect(readSignEntry('x', 'text').report.problems).toEqual(['a task must be a JSON object']);
  });

  it('migrates V1 and V2 task files as the reference panel does', () => {
    const report = new ItemReport();
    expect(migrateLegacySignConfig({ chat_id: 5, sign_text: 'hi', sign_at: '07:00:00', random_seconds: 0 }, report)).toEqual({
      sign_at: '07:00:00',
      random_seconds: 0,
      chats: [{ chat_id: 5, delete_after: null, actions: [{ action: 1, text: 'hi' }] }],
    });
    expect(
      migrateLegacySignConfig({ sign_at: '1', chats: [{ chat_id: 6, sign_text: '🎲', as_dice: true, text_of_btn_to_click: 'OK', choose_option_by_image: true, has_calculation_problem: true }] }, report),
    ).toEqual({ sign_at: '1', chats: [{ chat_id: 6, actions: [{ action: 2, dice: '🎲' }, { action: 3, text: 'OK' }, { action: 4 }, { action: 5 }] }] });
    const v3 = { sign_at: '1', chats: [{ chat_id: 6, actions: [] }] };
    expect(migrateLegacySignConfig(v3, report)).toBe(v3);
  });
});

describe('tg-signer monitors', () => {
  it('become listen rules per match_cfg: reply, ServerChan and http push; what has no equivalent is listed per monitor', () => {
    const { task, report } = readMonitor(
      'm',
      {
        match_cfgs: [
          { chat_id: 'chan_name', rule: 'all', from_user_ids: [1, 'me', '@x', 'y'], push_via_server_chan: true, server_chan_send_key: 'k', external_forwards: [{ type: 'udp', host: 'h', port: 1 }, { url: 'https://h/x', headers: { A: 'b' } }] },
          { chat_id: -5, rule: 'contains', rule_value: 'v', default_send_text: 'ok', delete_after: 0, forward_to_chat_id: 'me', ai_reply: true },
          { chat_id: -5, rule: 'exact', rule_value: 'w' },
        ],
      },
      'm',
    );
    expect(task['chats']).toEqual([
      {
        chat_id: '@chan_name',
        action_interval: 1,
        actions: [
          { action: 8, match_mode: 'regex', keywords: ['[\\s\\S]+'], ignore_case: true, ignore_self: false, sender_filter: '1,me,@x,@y', push_channel: 'server_chan', server_chan_key: 'k' },
          { action: 8, match_mode: 'regex', keywords: ['[\\s\\S]+'], ignore_case: true, ignore_self: false, sender_filter: '1,me,@x,@y', push_channel: 'custom', custom_url: 'https://h/x' },
        ],
      },
      {
        chat_id: -5,
        action_interval: 1,
        actions: [
          { action: 8, match_mode: 'contains', keywords: ['v'], ignore_case: true, ignore_self: false, push_channel: 'continue', continue_actions: [{ action: 1, text: 'ok' }], continue_chat_id: 'me', continue_delete_after: 0 },
          { action: 8, match_mode: 'exact', keywords: ['w'], ignore_case: true, ignore_self: false, push_channel: 'telegram' },
        ],
      },
    ]);
    expect(report.unmapped.map((field) => field.field)).toEqual(['match_cfgs[0].external_forwards[0]', 'match_cfgs[0].external_forwards[1].headers', 'match_cfgs[1].ai_reply']);
    expect(report.warnings).toEqual([expect.stringContaining('match_cfgs[2] sends no reply and no push')]);
    expect(readMonitor('e', { match_cfgs: [{ chat_id: 1, rule: 'regex' }] }, 'e').report.problems).toEqual(['match_cfgs[0].rule_value is required for rule regex']);
  });
});

describe('planning an import', () => {
  const task = (name: string, extra: Record<string, unknown> = {}) => ({ name, sign_at: '08:00', chats: [{ chat_id: 1, actions: [{ action: 1, text: 'x' }] }], ...extra });
  const plan = (document: Record<string, unknown>, accounts: string[] = [], stored?: SignTask) =>
    planImport(document, { overwrite: stored !== undefined, accounts, storedTask: (name) => (stored?.name === name ? stored : undefined), settings: settingsWith({}) });

  it('infers the account of an item that names none as the reference panel does, else refuses it', async () => {
    expect((await plan({ signs: { t: task('t') } }, ['x', 'my_account'])).items[0]).toMatchObject({ accounts: ['my_account'], action: 'create' });
    expect((await plan({ signs: { t: task('t') } }, ['only'])).items[0]).toMatchObject({ accounts: ['only'], action: 'create' });
    expect((await plan({ signs: { t: task('t') } }, ['a', 'b'])).items[0]).toMatchObject({ action: 'refuse', problems: [expect.stringContaining('give default_account')] });
  });

  it('refuses schedules that never fire or fire every second, as the task API does', async () => {
    const result = await plan({ signs: { a: task('a', { sign_at: '* * * * * *' }), b: task('b', { sign_at: '0 0 31 2 *' }), c: task('c') } }, ['x']);
    expect(result.items.map((item) => [item.name, item.action, item.problems])).toEqual([
      ['a', 'refuse', [expect.stringContaining('sign_at fires more often than once a minute')]],
      ['b', 'refuse', [expect.stringContaining('sign_at never fires')]],
      ['c', 'create', []],
    ]);
  });

  it('keeps differing per-account copies apart, and names a monitor that clashes with a sign task', async () => {
    const result = await plan(
      {
        signs: { 't@a': task('t', { account_name: 'a' }), 't@b': task('t', { account_name: 'b', sign_at: '09:00' }), 'm@a': task('m', { account_name: 'a' }) },
        monitors: { m: { match_cfgs: [{ chat_id: 1, rule: 'contains', rule_value: 'x' }] } },
      },
      ['a'],
    );
    expect(result.items.map((item) => [item.key, item.name, item.accounts, item.action])).toEqual([
      ['signs:t@a', 't (a)', ['a'], 'create'],
      ['signs:t@b', 't (b)', ['b'], 'create'],
      ['signs:m', 'm', ['a'], 'create'],
      ['monitors:m', 'm (monitor)', ['a'], 'create'],
    ]);
  });

  it('keeps a stored listen-rule secret for a masked or left-out one, and warns when nothing is stored', async () => {
    const listen = { name: 'w', account_name: 'a', execution_mode: 'listen', chats: [{ chat_id: 1, actions: [{ action: 8, keywords: ['k'], push_channel: 'bark' }] }] };
    const stored = { ...listen, random_seconds: 0, enabled: true, retry_count: 3, notify_on_failure: true, notify_on_success: false, last_run: null, created_at: '', updated_at: '', chats: [{ chat_id: 1, actions: [{ action: 8, keywords: ['k'], push_channel: 'bark', bark_url: 'https://b/KEY' }] }] } as unknown as SignTask;
    const kept = await plan({ signs: [listen] }, [], stored);
    expect(kept.tasks.get('signs:w')?.task.chats[0].actions[0].bark_url).toBe('https://b/KEY');
    const fresh = await plan({ signs: [{ ...listen, chats: [{ chat_id: 1, actions: [{ action: 8, keywords: ['k'], push_channel: 'bark', bark_url: '***MASKED***' }] }] }] });
    expect(fresh.items[0]).toMatchObject({ action: 'create', warnings: [expect.stringContaining('bark_url is masked and no stored value exists')] });
    expect(fresh.tasks.get('signs:w')?.task.chats[0].actions[0].bark_url).toBeUndefined();
  });

  it('reads regular expressions as Python does: \\w matches letters of every script', () => {
    expect(pythonRegexToJs('口令[:：]\\s*(\\w+)')).toBe('口令[:：]\\s*([\\p{L}\\p{N}_]+)');
    expect(pythonRegexToJs('[\\w-]+\\W')).toBe('[\\p{L}\\p{N}_-]+[^\\p{L}\\p{N}_]');
    expect(pythonRegexToJs('\\\\w')).toBeUndefined();
    expect(pythonRegexToJs('plain')).toBeUndefined();
    const translated = new RegExp(pythonRegexToJs('code:(\\w+)') as string, 'u').exec('code:红包42');
    expect(translated?.[1]).toBe('红包42');
  });

  it('refuses a document whose sections cannot be read', async () => {
    expect((await plan({ signs: 5 })).documentProblems).toEqual(['signs must be an object keyed by name (or a list), not number']);
    expect((await plan({ _meta: { format: 'other' } })).documentProblems).toEqual([expect.stringContaining('_meta.format must be tg-signpulse-config-export')]);
  });
});

describe('settings of the reference panel', () => {
  it('map to this panel, keep masked and empty secrets, skip is_custom false, and list what has no equivalent', () => {
    const plan = planSettingsImport(
      {
        global: { webdav_remote_dir: 'dir', telegram_bot_chat_id: 42, telegram_bot_token: '***MASKED***', webdav_password: null, global_proxy: 'socks5://x', brand_new: 1 },
        ai: null,
        telegram: { api_id: '611335', api_hash: 'd524b414d21f4d37f08684c1df41ac9c', is_custom: false },
      },
      settingsWith({ bot_token: '1:stored' }),
    );
    expect(plan.report.problems).toEqual([]);
    expect(plan.patch).toEqual({ webdav_dir: 'dir', bot_chat_id: '42' });
    expect(plan.keptSecrets).toEqual(['global.telegram_bot_token']);
    expect(plan.report.unmapped.map((field) => field.field)).toEqual(['global.global_proxy', 'global.brand_new', 'telegram']);
    const custom = planSettingsImport({ telegram: { api_id: '12345678', api_hash: '0123456789abcdef0123456789abcdef', is_custom: true } }, settingsWith({}));
    expect(custom.patch).toEqual({ telegram_api_id: 12345678, telegram_api_hash: '0123456789abcdef0123456789abcdef' });
  });

  it('do not let a masked secret follow its URL to another server', () => {
    const plan = planSettingsImport({ global: { webdav_url: 'https://elsewhere.example/dav', webdav_password: '***MASKED***' } }, settingsWith({ webdav_url: 'https://dav.example/', webdav_password: 'p' }));
    expect(plan.report.problems).toEqual([expect.stringContaining('webdav_password must be given again')]);
  });
});

describe("the reference panel's shape of a task", () => {
  const stored = {
    name: 'watch',
    account_names: ['a', 'b'],
    random_seconds: 0,
    execution_mode: 'listen',
    enabled: true,
    retry_count: 3,
    notify_on_failure: true,
    notify_on_success: false,
    last_run: null,
    created_at: '',
    updated_at: '',
    chats: [{ chat_id: '-1001', actions: [{ action: 8, keywords: ['k'], push_channel: 'server_chan', server_chan_key: 'SECRET', forward_chat_id: '-1002', continue_actions: [{ action: 1, text: 'x', delay: 3 }] }] }],
  } as unknown as SignTask;

  it('has one entry per account keyed task@account, numeric chat ids, string delays, empty ranges, and no secrets', () => {
    const entries = exportTaskEntries(stored, ['a', 'b']);
    expect(entries.map(([key]) => key)).toEqual(['watch@a', 'watch@b']);
    const [, first] = entries[0];
    expect(first).toMatchObject({ name: 'watch', account_name: 'a', account_names: ['a', 'b'], range_start: '', range_end: '', sign_at: '', sign_interval: 1 });
    expect(first['task_group_id']).toBe(entries[1][1]['task_group_id']);
    expect(first['chats']).toEqual([{ chat_id: -1001, actions: [{ action: 8, keywords: ['k'], push_channel: 'server_chan', forward_chat_id: -1002, continue_actions: [{ action: 1, text: 'x', delay: '3' }] }], delete_after: null, action_interval: 1, message_thread_id: null }]);
    expect(JSON.stringify(entries)).not.toContain('SECRET');
  });

  it('keeps ["*"] and exports a task of no current account under its plain name', () => {
    const wildcard = { ...stored, account_names: ['*'] } as SignTask;
    expect(exportTaskEntries(wildcard, ['a']).map(([key, value]) => [key, value['account_name'], value['account_names']])).toEqual([['watch@a', 'a', ['*']]]);
    expect(exportTaskEntries(wildcard, []).map(([key, value]) => [key, value['account_name'], value['account_names']])).toEqual([['watch', '', ['*']]]);
  });
});
