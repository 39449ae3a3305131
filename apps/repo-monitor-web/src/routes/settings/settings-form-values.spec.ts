import { describe, expect, it } from 'vitest';
import { settingsChanges, SystemSettings, validateSettings } from './settings-form-values';

const saved: SystemSettings = {
  time_zone: 'UTC',
  digest_time: '09:00',
  weekly_report: { enabled: false, weekday: 'monday' },
  monthly_report: { enabled: false, day: 1 },
  retention: { events_days: 90, outbox_days: 30, deliveries_days: 30 },
  aggregation: { window_seconds: 60, burst_threshold: 15, burst_window_seconds: 300 },
  starred_username: null,
};

describe('general settings', () => {
  it('sends only what changed (and nothing when nothing did)', () => {
    expect(settingsChanges(saved, { ...saved })).toEqual({});
    expect(settingsChanges(saved, { ...saved, time_zone: 'Asia/Shanghai', retention: { ...saved.retention, events_days: 30 } })).toEqual({
      time_zone: 'Asia/Shanghai',
      retention: { events_days: 30, outbox_days: 30, deliveries_days: 30 },
    });
  });

  it('an emptied starred user turns it off (null); blanks are not a change', () => {
    expect(settingsChanges({ ...saved, starred_username: 'octocat' }, { ...saved, starred_username: '' })).toEqual({ starred_username: null });
    expect(settingsChanges(saved, { ...saved, starred_username: '  ' })).toEqual({});
  });

  it('checks the digest time and the user name', () => {
    expect(validateSettings({ ...saved, digest_time: '24:00', starred_username: 'bad name' })).toEqual({ digest_time: 'digestTime', starred_username: 'starredUser' });
    expect(validateSettings({ ...saved, starred_username: 'octo-cat' })).toEqual({});
  });
});
