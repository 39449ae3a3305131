import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../../i18n/all';
import { describeSchedule, scheduleShape } from './schedule-text';
import { listenerHealthOf, nextRunOf } from './tasks-api';

function translator(language: 'en' | 'zh') {
  const i18n = createInstance();
  void i18n.init({ lng: language, resources: { en: { translation: en }, zh: { translation: zh } }, interpolation: { escapeValue: false }, initAsync: false });
  return i18n.t.bind(i18n);
}

const fixed = (sign_at: string) => ({ execution_mode: 'fixed', sign_at });

describe('a schedule as a sentence', () => {
  it('reads the common shapes in English and Chinese', () => {
    const t = translator('en');
    const zhT = translator('zh');
    expect(describeSchedule(t, fixed('30 7 * * 1-5'))).toBe('Weekdays at 07:30');
    expect(describeSchedule(zhT, fixed('30 7 * * 1-5'))).toBe('工作日 07:30');
    expect(describeSchedule(t, fixed('08:00'))).toBe('Every day at 08:00');
    expect(describeSchedule(zhT, fixed('0 0 8 * * *'))).toBe('每天 08:00');
    expect(describeSchedule(t, fixed('0 9 * * 0,6'))).toBe('Weekends at 09:00');
    expect(describeSchedule(t, fixed('15 20 * * 5-7'))).toBe('Fri, Sat, Sun at 20:15');
    expect(describeSchedule(t, fixed('0 9 * * 1'))).toBe('Mon at 09:00');
    expect(describeSchedule(zhT, fixed('0 9 * * MON,WED'))).toBe('周一、周三 09:00');
    expect(describeSchedule(t, { execution_mode: 'range', range_start: '08:00', range_end: '09:30' })).toBe('Every day between 08:00 and 09:30');
    expect(describeSchedule(zhT, { execution_mode: 'listen' })).toBe('启用期间持续监听');
  });

  it('leaves what it cannot say simply as it is', () => {
    expect(scheduleShape('*/15 * * * *')).toEqual({ kind: 'raw', text: '*/15 * * * *' });
    expect(scheduleShape('0 8 1 * *')).toEqual({ kind: 'raw', text: '0 8 1 * *' });
    expect(scheduleShape('0 8,20 * * *')).toEqual({ kind: 'raw', text: '0 8,20 * * *' });
    expect(scheduleShape('5 0 8 * * *')).toEqual({ kind: 'daily', time: '08:00:05' });
  });

  it('finds a task\'s next run among the scheduler\'s sign jobs', () => {
    const jobs = [
      { id: 'sign-alice-daily', type: 'sign', next_run_at: '2026-12-01T08:00:00.000Z' },
      { id: 'sign-bob-daily', type: 'sign', next_run_at: '2026-12-01T07:00:00.000Z' },
      { id: 'sign-alice-daily-late', type: 'sign', next_run_at: '2026-12-01T06:00:00.000Z' },
    ];
    expect(nextRunOf({ name: 'daily', account_names: ['alice'] }, jobs, ['alice', 'bob'])).toBe('2026-12-01T08:00:00.000Z');
    expect(nextRunOf({ name: 'daily', account_names: ['*'] }, jobs, ['alice', 'bob'])).toBe('2026-12-01T07:00:00.000Z');
    expect(nextRunOf({ name: 'weekly', account_names: ['alice'] }, jobs, ['alice'])).toBeNull();
  });

  it('counts in real plurals', () => {
    const t = translator('en');
    expect(t('tasks.started', { count: 1 })).toBe('Started 1 run');
    expect(t('tasks.started', { count: 2 })).toBe('Started 2 runs');
    expect(t('tasks.chatsCount', { count: 1 })).toBe('1 chat');
    expect(translator('zh')('tasks.chatsCount', { count: 3 })).toBe('3 个聊天');
  });

  it('reads a listen task\'s listener health from the runtime status', () => {
    const details = {
      accounts: {
        alice: { state: 'listening', tasks: ['deals', 'news'] },
        bob: { state: 'needs_relogin', tasks: ['news'] },
        carol: { state: 'starting', tasks: ['jobs'] },
      },
    };
    expect(listenerHealthOf('deals', details)).toEqual({ health: 'listening', accounts: ['alice'] });
    expect(listenerHealthOf('news', details)).toEqual({ health: 'failing', accounts: ['bob'] });
    expect(listenerHealthOf('jobs', details)).toEqual({ health: 'starting', accounts: ['carol'] });
    expect(listenerHealthOf('other', details)).toEqual({ health: 'not_listening', accounts: [] });
    expect(listenerHealthOf('deals', undefined)).toEqual({ health: 'not_listening', accounts: [] });
  });
});
