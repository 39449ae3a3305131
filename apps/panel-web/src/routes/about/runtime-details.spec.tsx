import { createI18n } from '@shared/web-ui';
import { renderWithProviders } from '@shared/web-ui/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../../i18n/all';
import { detailLabel, detailText, RuntimeDetails } from './runtime-details';

const t = createI18n({ en, zh }, 'en');

describe('runtime details', () => {
  it('labels the service keys in words, also ones this version does not know', () => {
    expect(detailLabel(t.t, 'interval_hours')).toBe('Every (hours)');
    expect(detailLabel(t.t, 'some_new_counter')).toBe('Some new counter');
  });

  it('formats values: times in the configured zone, bytes, yes/no, translated codes and lock explanations', () => {
    expect(detailText(t.t, 'next_run_at', '2026-11-23T16:30:00Z', 'Asia/Shanghai', 'en')).toBe('2026-11-24 00:30:00');
    expect(detailText(t.t, 'peak_rss_bytes', 665329664, 'UTC', 'en')).toBe('634.5 MiB');
    expect(detailText(t.t, 'held', true, 'UTC', 'en')).toBe('Yes');
    expect(detailText(t.t, 'state', 'needs_relogin', 'UTC', 'en')).toBe('Needs a new login');
    expect(detailText(t.t, 'gate', 'jobs run only on the holder of .scheduler.lock', 'UTC', 'en')).toBe('Only on the instance holding the scheduler lock');
    expect(detailText(t.t, 'gate', 'something new', 'UTC', 'en')).toBe('something new');
    expect(detailText(t.t, 'samples', 12345, 'UTC', 'en')).toBe('12,345');
    expect(detailText(t.t, 'pid', 25447, 'UTC', 'en')).toBe('25447');
    expect(detailText(t.t, 'job', 'system-auto-backup', 'UTC', 'en')).toBe('Automatic backup');
    expect(detailText(t.t, 'interval_hours', null, 'UTC', 'en')).toBe('—');
  });

  it('shows nested objects as indented lines, account names as they are, and nothing as "None"', () => {
    renderWithProviders(
      <RuntimeDetails
        timeZone="UTC"
        details={{ accounts: { alice_main: { state: 'listening', tasks: ['deals'], problems: [] } }, lock: { enabled: true, holder: null }, account_allowlist: {} }}
      />,
      { resources: { en, zh } },
    );
    expect(screen.getByText('alice_main')).toBeTruthy();
    expect(screen.getByText('Listening')).toBeTruthy();
    expect(screen.getByText('Scheduler lock')).toBeTruthy();
    expect(screen.getByText('In use')).toBeTruthy();
    expect(screen.queryByText(/\{\}/)).toBeNull();
    expect(screen.getAllByText('None').length).toBe(2);
  });
});
