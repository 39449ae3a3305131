import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/client';
import { apiFieldErrors, chatIdValue, emptyAction, emptyChat, emptyTask, formFromTask, patternList, scheduleIssues, stepOfField, TaskForm, taskFromForm, validateTask } from './task-form';

function signTask(overrides: Partial<TaskForm> = {}): TaskForm {
  return { ...emptyTask(), name: 'daily', accounts: ['alice'], chats: [{ ...emptyChat(), chat_id: '@checkin_bot', actions: [{ ...emptyAction(1), text: '/checkin' }] }], ...overrides };
}

describe('task form', () => {
  it('turns a sign task into the API body with only the fields each action uses', () => {
    const form = signTask({ accounts: ['alice', 'bob'], random_seconds: 30, sign_interval: '' });
    form.chats[0].actions.push({ ...emptyAction(3), text: 'Sign in', delay: '2-5', ai_prompt: 'left over from another kind' }, { ...emptyAction(2) });
    form.chats[0].chat_id = '-1001234567890';
    expect(taskFromForm(form)).toEqual({
      name: 'daily',
      account_names: ['alice', 'bob'],
      execution_mode: 'fixed',
      sign_at: '08:00',
      random_seconds: 30,
      retry_count: 3,
      enabled: true,
      notify_on_failure: true,
      notify_on_success: false,
      chats: [
        {
          chat_id: -1001234567890,
          actions: [
            { action: 1, text: '/checkin' },
            { action: 3, text: 'Sign in', delay: '2-5' },
            { action: 2, dice: '🎲' },
          ],
        },
      ],
    });
  });

  it('sends one account as account_name, every account as ["*"], and range mode without sign_at', () => {
    expect(taskFromForm(signTask()).account_name).toBe('alice');
    const all = taskFromForm(signTask({ all_accounts: true, accounts: ['ignored'], execution_mode: 'range' }));
    expect(all.account_names).toEqual(['*']);
    expect(all.account_name).toBeUndefined();
    expect(all.sign_at).toBeUndefined();
    expect([all.range_start, all.range_end]).toEqual(['08:00', '09:00']);
  });

  it('writes a listen rule with its push channel and follow-ups, and reads it back unchanged', () => {
    const rule = {
      ...emptyAction(8),
      keywords: 'red packet\n  \nlucky draw ',
      match_mode: 'contains' as const,
      push_channel: 'continue' as const,
      continue_chat_id: '@helper_bot',
      continue_actions: [
        { ...emptyAction(1), text: 'Got {keyword}', delay: '1' },
        { ...emptyAction(9), max_batch: 3 as const },
      ],
    };
    const form = signTask({ execution_mode: 'listen', chats: [{ ...emptyChat('listen'), chat_id: '-100200', name: 'Deals', message_thread_id: '', action_interval: '', delete_after: '', actions: [rule] }] });
    const body = taskFromForm(form);
    expect(body.random_seconds).toBeUndefined();
    expect(body.chats[0]).toEqual({
      chat_id: -100200,
      name: 'Deals',
      actions: [
        {
          action: 8,
          keywords: ['red packet', 'lucky draw'],
          match_mode: 'contains',
          ignore_case: true,
          ignore_self: true,
          push_channel: 'continue',
          continue_chat_id: '@helper_bot',
          continue_actions: [{ action: 1, text: 'Got {keyword}', delay: 1 }, { action: 9, max_batch: 3 }],
        },
      ],
    });
    const stored = { ...body, random_seconds: 0, last_run: null, created_at: '', updated_at: '' } as unknown as Schemas['SignTaskDto'];
    const again = formFromTask(stored);
    expect(taskFromForm(again)).toEqual(body);
    expect(again.chats[0].actions[0].keywords).toBe('red packet\nlucky draw');
  });

  it('finds what the API would refuse, per field', () => {
    const form = signTask({ name: ' ', accounts: [], sign_at: 'every day', retry_count: 100 });
    form.chats[0].chat_id = 'not a chat';
    form.chats[0].actions = [{ ...emptyAction(1), text: '', delay: '9-3' }, { ...emptyAction(8) }];
    const issues = validateTask(form);
    expect(Object.fromEntries(Object.entries(issues).map(([path, issue]) => [path, issue.key]))).toEqual({
      name: 'required',
      accounts: 'accountsRequired',
      sign_at: 'schedule',
      retry_count: 'between',
      'chats.0.chat_id': 'chatId',
      'chats.0.actions.0.text': 'required',
      'chats.0.actions.0.delay': 'delay',
      'chats.0.actions.1.action': 'actionNotHere',
      'chats.0.actions.1.keywords': 'keywordsRequired',
    });
    expect(validateTask(signTask())).toEqual({});
  });

  it('checks listen rules: push channel needs, active hours together, follow-ups', () => {
    const rule = { ...emptyAction(8), keywords: 'x', push_channel: 'bark' as const, bark_url: 'ftp://nope', active_time_start: '8:00' };
    const form = signTask({ execution_mode: 'listen', chats: [{ ...emptyChat('listen'), chat_id: 'me', name: '', message_thread_id: '', action_interval: '', delete_after: '', actions: [rule, { ...emptyAction(8), keywords: 'y', push_channel: 'continue' }] }] });
    const keys = Object.fromEntries(Object.entries(validateTask(form)).map(([path, issue]) => [path, issue.key]));
    expect(keys).toEqual({ 'chats.0.actions.0.bark_url': 'url', 'chats.0.actions.0.active_time_end': 'activeTogether', 'chats.0.actions.1.continue_actions': 'followUpRequired' });
  });

  it('checks the schedule of each mode', () => {
    expect(scheduleIssues({ execution_mode: 'fixed', sign_at: '0 8 * * 1-5', range_start: '', range_end: '', random_seconds: 0 })).toEqual({});
    expect(scheduleIssues({ execution_mode: 'fixed', sign_at: '25:00', range_start: '', range_end: '', random_seconds: 0 })).toEqual({ sign_at: { key: 'schedule' } });
    expect(scheduleIssues({ execution_mode: 'range', sign_at: '', range_start: '08:00', range_end: '8:00:00', random_seconds: 0 })).toEqual({ range_end: { key: 'rangeSame' } });
    expect(scheduleIssues({ execution_mode: 'listen', sign_at: '', range_start: '', range_end: '', random_seconds: -1 })).toEqual({});
  });

  it('maps the API 400 problems onto the editor fields and keeps the rest for a summary', () => {
    const { fields, other } = apiFieldErrors(
      [
        'sign_at fires more often than once a minute (the shortest interval allowed is 60 seconds: one value in the seconds field)',
        'chats.0.actions.1.keywords.2 is not a valid regular expression for RE2: lookahead',
        'chats.1.actions.0: ai_reply and send_text_search_regex answer a hit message',
        'chats.0.actions.1.continue_actions.0.text is required for action 1 (send text)',
        'account "bad name" is not a valid account name',
        'range mode needs range_start and range_end as HH:MM[:SS]',
        'property colour should not exist',
      ].join('; '),
    );
    expect(Object.keys(fields).sort()).toEqual(['accounts', 'chats.0.actions.1.continue_actions.0.text', 'chats.0.actions.1.keywords', 'chats.1.actions.0.action', 'range_start', 'sign_at']);
    // The message of the API splits "a; b" problems; one problem's own "; " stays with the field it names.
    expect(fields['sign_at']).toContain('fires more often than once a minute');
    expect(other).toContain('property colour should not exist');
    expect(stepOfField('sign_at')).toBe('schedule');
    expect(stepOfField('chats.0.actions.1.keywords')).toBe('chats');
    expect(stepOfField('accounts')).toBe('basics');
    expect(stepOfField('retry_count')).toBe('review');
  });

  it('sends numeric chat ids as numbers and usernames as text', () => {
    expect(chatIdValue(' -100123 ')).toBe(-100123);
    expect(chatIdValue('@bot_name')).toBe('@bot_name');
    expect(chatIdValue('me')).toBe('me');
  });

  it('writes verdict patterns (text, or /regex/), reply-to clicks and listen throttles, and reads them back unchanged', () => {
    expect(patternList('签到成功\n /already|已签/ \n\n/x')).toEqual([
      { mode: 'contains', pattern: '签到成功' },
      { mode: 'regex', pattern: 'already|已签' },
      { mode: 'contains', pattern: '/x' },
    ]);
    const form = signTask({
      chats: [
        {
          ...emptyChat(),
          chat_id: '@checkin_bot',
          actions: [{ ...emptyAction(1), text: '/start' }, { ...emptyAction(3), text: '签到', from_reply: true }],
          verdict_success: '签到成功\n/check.?in success/',
          verdict_already_done: '今日已签',
          verdict_timeout: 20,
          verdict_rerun_after_wait: false,
        },
      ],
    });
    const body = taskFromForm(form);
    expect(body.chats[0]).toEqual({
      chat_id: '@checkin_bot',
      actions: [{ action: 1, text: '/start' }, { action: 3, text: '签到', from_reply: true }],
      verdict: {
        success: [{ mode: 'contains', pattern: '签到成功' }, { mode: 'regex', pattern: 'check.?in success' }],
        already_done: [{ mode: 'contains', pattern: '今日已签' }],
        timeout_seconds: 20,
        rerun_after_wait: false,
      },
    });
    const again = formFromTask({ ...body, last_run: null, created_at: '', updated_at: '' } as unknown as Schemas['SignTaskDto']);
    expect(taskFromForm(again)).toEqual(body);
    // No pattern at all: no verdict, the run is judged by its actions as before.
    expect(taskFromForm(signTask()).chats[0]).not.toHaveProperty('verdict');

    const listen = taskFromForm(
      signTask({
        execution_mode: 'listen',
        chats: [{ ...emptyChat('listen'), chat_id: '-100123', actions: [{ ...emptyAction(8), keywords: 'gift', cooldown: 60, probability: 0.5, max_daily: 3, exclude_user_ids: '111\n222' }] }],
      }),
    );
    expect(listen.chats[0].actions[0]).toMatchObject({ cooldown: 60, probability: 0.5, max_daily: 3, exclude_user_ids: ['111', '222'] });
    expect(apiFieldErrors('chats.0.verdict.success.1.pattern is not a valid regular expression for RE2: x').fields).toEqual({
      'chats.0.verdict_success': 'chats.0.verdict.success.1.pattern is not a valid regular expression for RE2: x',
    });
  });
});
