import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/client';
import { isRunning } from './run-drawer';
import { matchesSearch, notRunnableReason, taskFilter } from './tasks-page';

const task = (overrides: Partial<Schemas['SignTaskDto']> = {}) =>
  ({
    name: 'Daily check-in',
    account_name: 'alice',
    execution_mode: 'fixed',
    sign_at: '08:00',
    random_seconds: 0,
    enabled: true,
    retry_count: 3,
    notify_on_failure: true,
    notify_on_success: false,
    last_run: null,
    created_at: '',
    updated_at: '',
    chats: [{ chat_id: -100123, name: 'Points group', actions: [{ action: 1, text: '/checkin' }] }],
    ...overrides,
  }) as Schemas['SignTaskDto'];

describe('tasks list', () => {
  it('reads only known filter values from the URL', () => {
    expect(taskFilter(new URLSearchParams('account=bob&enabled=false&type=listen&q=deal'))).toEqual({ filter: { account: 'bob', enabled: 'false', execution_mode: 'listen' }, search: 'deal' });
    expect(taskFilter(new URLSearchParams('enabled=maybe&type=cron'))).toEqual({ filter: { account: undefined, enabled: undefined, execution_mode: undefined }, search: '' });
  });

  it('searches names, accounts and chats in any case', () => {
    expect(matchesSearch(task(), 'DAILY')).toBe(true);
    expect(matchesSearch(task(), 'points')).toBe(true);
    expect(matchesSearch(task(), '-100123')).toBe(true);
    expect(matchesSearch(task({ account_name: undefined, account_names: ['carol', 'dave'] }), 'dave')).toBe(true);
    expect(matchesSearch(task(), 'weekly')).toBe(false);
    expect(matchesSearch(task(), '  ')).toBe(true);
  });

  it('treats a task as running while any of its account runs is', () => {
    const idle = { state: 'idle', runs: [] } as unknown as Schemas['TaskRunStatusDto'];
    const second = { state: 'finished', runs: [{ state: 'finished' }, { state: 'running' }] } as unknown as Schemas['TaskRunStatusDto'];
    expect(isRunning(undefined)).toBe(false);
    expect(isRunning(idle)).toBe(false);
    expect(isRunning(second)).toBe(true);
  });

  it('offers "Run now" only where the service would start a run', () => {
    expect(notRunnableReason(task(), 1)).toBeUndefined();
    expect(notRunnableReason(task({ execution_mode: 'listen' }), 1)).toBe('listen');
    expect(notRunnableReason(task({ account_name: undefined, account_names: [] }), 3)).toBe('noAccount');
    expect(notRunnableReason(task({ account_name: undefined, account_names: ['*'] }), 0)).toBe('noAccount');
    expect(notRunnableReason(task({ account_name: undefined, account_names: ['*'] }), 2)).toBeUndefined();
    // While the accounts are loading, a task for every account is not held back.
    expect(notRunnableReason(task({ account_name: undefined, account_names: ['*'] }), undefined)).toBeUndefined();
  });
});
