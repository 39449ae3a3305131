import { createI18n } from '@shared/web-ui';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../i18n/all';
import { jobLabel } from './codes';

describe('jobLabel', () => {
  it("names the scheduler's own jobs in the page's language and keeps a sign job's id", () => {
    const i18n = createI18n({ en, zh }, 'zh-CN');
    const t = i18n.getFixedT('zh-CN', 'app');
    expect(jobLabel(t, { id: 'system-device-keepalive', type: 'system' })).toBe('设备保活');
    expect(jobLabel(t, { id: 'system-something-new', type: 'system' })).toBe('system-something-new');
    expect(jobLabel(t, { id: 'sign-main-daily-checkin', type: 'sign' })).toBe('sign-main-daily-checkin');
    expect(jobLabel(i18n.getFixedT('en', 'app'), { id: 'system-maintenance', type: 'system' })).toBe('Maintenance');
  });
});
