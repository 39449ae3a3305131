import { cronOfSignAt, isTaskName, parseTaskInput, parseTimeOfDay } from './task-validation';

const base = {
  name: 'daily',
  account_name: 'main',
  sign_at: '08:00',
  execution_mode: 'fixed',
  chats: [{ chat_id: '@bot_name', actions: [{ action: 1, text: '/sign' }] }],
};

const listen = (rule: Record<string, unknown>) => ({
  ...base,
  execution_mode: 'listen',
  sign_at: undefined,
  chats: [{ chat_id: -100123, actions: [{ action: 8, keywords: ['win'], ...rule }] }],
});

function problemsOf(input: unknown, strict = true): string[] {
  const parsed = parseTaskInput(input, { strict });
  return parsed.ok ? [] : parsed.problems;
}

describe('task validation', () => {
  it('turns sign_at into a 6-field cron: HH:MM[:SS] daily, 5 fields get second 0, 6 fields stay', () => {
    expect(cronOfSignAt('08:05')).toBe('0 5 8 * * *');
    expect(cronOfSignAt('23:59:30')).toBe('30 59 23 * * *');
    expect(cronOfSignAt('*/5 * * * *')).toBe('0 */5 * * * *');
    expect(cronOfSignAt('10 0 8 * * 1-5')).toBe('10 0 8 * * 1-5');
    for (const bad of ['24:00', '8', '61 * * * *', '* * * *', '* * * * * * *', 'every day']) expect(cronOfSignAt(bad)).toBeUndefined();
    expect(parseTimeOfDay('07:30')).toBe(27_000);
  });

  it('accepts a complete fixed task and fills nothing it was not given', () => {
    const parsed = parseTaskInput(base, { strict: true });
    expect(parsed).toEqual({ ok: true, task: base });
  });

  it('refuses path-unsafe names, unknown actions, bad numbers and unknown fields (strict)', () => {
    expect(isTaskName('Täglich 签到')).toBe(true);
    for (const name of ['../x', '.hidden', 'a/b', 'trailing ', '', 'x'.repeat(65)]) expect(isTaskName(name)).toBe(false);
    expect(problemsOf({ ...base, name: 'a/b' }).join()).toMatch(/name must be/);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 0 }] }] }).join()).toMatch(/action must be one of 1-9/);
    expect(problemsOf({ ...base, retry_count: 100 }).join()).toMatch(/retry_count/);
    expect(problemsOf({ ...base, extra: true }).join()).toMatch(/extra/);
    expect(problemsOf({ ...base, extra: true }, false)).toEqual([]);
  });

  it('checks accounts, schedules by mode and what each action needs', () => {
    expect(problemsOf({ ...base, account_names: ['a'] }).join()).toMatch(/exactly one of account_name or account_names/);
    expect(problemsOf({ ...base, account_name: undefined, account_names: ['*', 'a'] }).join()).toMatch(/stands alone/);
    expect(problemsOf({ ...base, execution_mode: 'range', sign_at: undefined, range_start: '08:00', range_end: '08:00' }).join()).toMatch(/differ/);
    expect(problemsOf({ ...base, execution_mode: 'range', sign_at: undefined, range_start: '23:00', range_end: '01:00' })).toEqual([]);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 2 }] }] }).join()).toMatch(/dice is required/);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 1, text: 'x', delay: '5-2' }] }] }).join()).toMatch(/delay/);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 1, text: 'x', delay: '2-5' }] }] })).toEqual([]);
  });

  it('checks listen rules: regex compiles, channel fields present, action 9 only as a continue follow-up', () => {
    expect(problemsOf(listen({ match_mode: 'regex', keywords: ['(a'] })).join()).toMatch(/not a valid regular expression/);
    expect(problemsOf(listen({ match_mode: 'regex', keywords: ['^a+$'] }))).toEqual([]);
    expect(problemsOf(listen({ push_channel: 'forward' })).join()).toMatch(/forward_chat_id is required/);
    expect(problemsOf(listen({ push_channel: 'custom', custom_url: 'ftp://x' })).join()).toMatch(/http\(s\) URL/);
    expect(problemsOf(listen({ active_time_start: '22:00' })).join()).toMatch(/go together/);
    expect(problemsOf(listen({ push_channel: 'continue', continue_chat_id: '@bot_name', continue_actions: [{ action: 9 }, { action: 1, text: 'hi {keyword}' }] }))).toEqual([]);
    expect(problemsOf(listen({ push_channel: 'continue', continue_chat_id: '@bot_name', continue_actions: [{ action: 8, keywords: ['x'] }] })).join()).toMatch(/action 8/);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 9 }] }] }).join()).toMatch(/only in continue_actions/);
    expect(problemsOf(listen({})).length).toBe(0);
    expect(problemsOf({ ...listen({}), chats: [{ chat_id: 1, actions: [{ action: 1, text: 'x' }] }] }).join()).toMatch(/only action 8 rules/);
  });
});
