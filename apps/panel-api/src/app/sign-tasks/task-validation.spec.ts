import { cronOfSignAt, isTaskName, parseTaskInput, parseTimeOfDay, pushSecretProblems, scheduleProblem, taskFileStem } from './task-validation';

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

  it('takes any display name, derives a safe file name, and refuses unknown actions, bad numbers and unknown fields (strict)', () => {
    for (const name of ['Täglich 签到', '🎉 签到!', '../x', 'a/b', '每日签到 (主号)', 'x'.repeat(64), '🙂'.repeat(64)]) expect(isTaskName(name)).toBe(true);
    for (const name of ['trailing ', ' leading', '', 'x'.repeat(65), 'a\nb', 'tab\there']) expect(isTaskName(name)).toBe(false);
    expect(problemsOf({ ...base, name: 'a\u0000b' }).join()).toMatch(/name must be/);
    expect(taskFileStem('daily-checkin')).toBe('daily-checkin');
    expect(taskFileStem('Täglich 签到')).toBe('Täglich 签到');
    for (const name of ['../x', 'a/b', '🎉 签到!', '.hidden', 'a\\b']) {
      const stem = taskFileStem(name);
      expect(stem).toMatch(/^[^./\\][^/\\]*~[0-9a-f]{12}$/u);
    }
    expect(taskFileStem('签到 🎉/每日')).not.toBe(taskFileStem('签到 🎉?每日'));
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

  it('refuses schedules that never fire or fire more than once a minute; task files on disk still load', () => {
    for (const never of ['0 0 31 2 *', '0 0 0 30 2 *', '0 12 31 4 *']) expect(problemsOf({ ...base, sign_at: never }).join()).toMatch(/sign_at never fires/);
    for (const often of ['* * * * * *', '*/10 * * * * *', '0,30 0 8 * * *', '0,59 0 8 * * *', '5-6 0 12 1 1 *']) {
      expect([often, problemsOf({ ...base, sign_at: often }).join()]).toEqual([
        often,
        expect.stringMatching(/more often than once a minute \(the shortest interval allowed is 60 seconds/),
      ]);
    }
    for (const fine of ['* * * * *', '0 * * * * *', '30 */1 * * * *', '0 0 29 2 *', '08:00:59', '0 0 31 * *'])
      expect([fine, problemsOf({ ...base, sign_at: fine })]).toEqual([fine, []]);
    expect(scheduleProblem('0 0 0 31 2 *')).toMatch(/never fires/);
    // Names and day-of-week restrictions go through the cron library.
    expect(scheduleProblem('0 0 0 31 FEB *')).toMatch(/never fires/);
    expect(scheduleProblem('*/30 * * * * MON')).toMatch(/more often than once a minute/);
    expect(scheduleProblem('0 0 8 * * MON-FRI')).toBeUndefined();
    // The common case is arithmetic, not a search: a thousand checks take well under a second.
    // CPU time, not wall time: a starved machine stretches the one, not the other.
    const started = process.cpuUsage();
    for (let i = 0; i < 1000; i++) scheduleProblem(i % 2 ? `0 ${i % 60} 8 * * *` : `0 ${i % 60} 8 * * 1-5`);
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1000);
    expect(parseTaskInput({ ...base, sign_at: '* * * * * *' }, { strict: false, checkSchedule: false }).ok).toBe(true);
  });

  it('takes null in an optional field, at any depth, as not set and never throws', () => {
    expect(
      problemsOf({
        ...base,
        random_seconds: null,
        range_start: null,
        range_end: null,
      }),
    ).toEqual([]);
    expect(problemsOf({ ...base, sign_at: null }).join()).toMatch(/sign_at is required in fixed mode/);
    expect(
      problemsOf({
        ...base,
        execution_mode: 'range',
        sign_at: null,
        range_start: null,
        range_end: '09:00',
      }).join(),
    ).toMatch(/range mode needs/);
    expect(problemsOf(listen({ active_time_start: null, active_time_end: null }))).toEqual([]);
    expect(problemsOf(listen({ active_time_start: null, active_time_end: '09:00' })).join()).toMatch(/go together/);
    expect(problemsOf({ ...base, name: null }).join()).toMatch(/name/);
    expect(problemsOf({ ...base, chats: null }).join()).toMatch(/chats/);
  });

  it('checks listen rules: regex compiles, channel fields present, action 9 only as a continue follow-up', () => {
    expect(problemsOf(listen({ match_mode: 'regex', keywords: ['(a'] })).join()).toMatch(/not a valid regular expression/);
    expect(problemsOf(listen({ match_mode: 'regex', keywords: ['^a+$'] }))).toEqual([]);
    expect(problemsOf(listen({ push_channel: 'forward' })).join()).toMatch(/forward_chat_id is required/);
    // A missing push secret is refused by API writes (pushSecretProblems), not by parsing (imports leave secrets out).
    expect(problemsOf(listen({ push_channel: 'bark' }))).toEqual([]);
    expect(pushSecretProblems(listen({ push_channel: 'bark' }) as never)).toEqual(['chats.0.actions.0.bark_url is required for push_channel bark']);
    expect(problemsOf(listen({ push_channel: 'continue', continue_actions: [{ action: 1, text: 'hi' }] }))).toEqual([]);
    expect(problemsOf(listen({ push_channel: 'continue', continue_actions: [{ action: 1, ai_reply: true }] })).join()).toMatch(/ai_prompt is required with ai_reply/);
    expect(problemsOf(listen({ push_channel: 'continue', continue_actions: [{ action: 1, send_text_search_regex: '(a' }] })).join()).toMatch(/not a valid regular expression/);
    expect(problemsOf(listen({ push_channel: 'continue', continue_actions: [{ action: 1, send_text_search_regex: 'code: (\\w+)' }, { action: 9, bot_username: 'RedPacketBot', command_prefix: '/start', start_param: '{keyword}', max_batch: 2 }] }))).toEqual([]);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 1, ai_reply: true, ai_prompt: 'x' }] }] }).join()).toMatch(/belong to continue_actions/);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 1, text: 'x', bot_username: 'RedPacketBot' }] }] }).join()).toMatch(/belongs to action 9 only/);
    expect(problemsOf(listen({ push_channel: 'continue', continue_actions: [{ action: 9, max_batch: 0 }] })).join()).toMatch(/max_batch/);
    expect(problemsOf({ ...base, sign_interval: 5 })).toEqual([]);
    expect(problemsOf({ ...base, sign_interval: -1 }).join()).toMatch(/sign_interval/);
    expect(problemsOf(listen({ push_channel: 'custom', custom_url: 'ftp://x' })).join()).toMatch(/http\(s\) URL/);
    expect(problemsOf(listen({ active_time_start: '22:00' })).join()).toMatch(/go together/);
    expect(problemsOf(listen({ push_channel: 'continue', continue_chat_id: '@bot_name', continue_actions: [{ action: 9 }, { action: 1, text: 'hi {keyword}' }] }))).toEqual([]);
    expect(problemsOf(listen({ push_channel: 'continue', continue_chat_id: '@bot_name', continue_actions: [{ action: 8, keywords: ['x'] }] })).join()).toMatch(/action 8/);
    expect(problemsOf({ ...base, chats: [{ chat_id: 1, actions: [{ action: 9 }] }] }).join()).toMatch(/only in continue_actions/);
    expect(problemsOf(listen({})).length).toBe(0);
    expect(problemsOf({ ...listen({}), chats: [{ chat_id: 1, actions: [{ action: 1, text: 'x' }] }] }).join()).toMatch(/only action 8 rules/);
  });
});
