import { requestJson } from '@shared/testing';
import { AuditLogService } from '../src/app/admin/audit-log.service';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

interface Page {
  items: Array<{ action: string; actor: string }>;
  total: number;
}

/** The audit log narrowed by action, family of actions and who acted (issue 33 item 9). */
describe('GET /api/v1/audit-log filters', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;
  const get = (query: string) => requestJson<Page>(monitor.url, `/api/v1/audit-log?per_page=100${query}`, { headers: adminHeaders(session) });

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } });
    session = await loginAdmin(monitor);
    const audit = monitor.app.get(AuditLogService);
    await audit.record({ actor: 'admin', action: 'notification_channel.created', target: 'c1' });
    await audit.record({ actor: 'admin', action: 'notification_channel.deleted', target: 'c1' });
    await audit.record({ actor: 'system', action: 'notification_channel.seeded', target: 'c2' });
    await audit.record({ actor: 'mona', action: 'auth.login_failed' });
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('narrows to a family of actions, one action, and who acted', async () => {
    const family = await get('&action=notification_channel');
    expect(family.status).toBe(200);
    expect(family.body.items.map((item) => item.action)).toEqual(['notification_channel.seeded', 'notification_channel.deleted', 'notification_channel.created']);
    expect((await get('&action=notification_channel.created')).body.items.map((item) => item.action)).toEqual(['notification_channel.created']);
    // A prefix that is not a whole family name matches nothing.
    expect((await get('&action=notification')).body.total).toBe(0);
    expect((await get('&actor=system')).body.items.map((item) => item.action)).toEqual(['notification_channel.seeded']);
    expect((await get('&action=auth&actor=mona')).body.items.map((item) => item.action)).toEqual(['auth.login_failed']);
  });

  it('answers 400 on a malformed filter and 401 without a session', async () => {
    for (const query of ['&action=Auth', '&action=a.b.c', `&action=${'a'.repeat(65)}`, '&actor=', `&actor=${'x'.repeat(65)}`]) {
      expect({ query, status: (await get(query)).status }).toEqual({ query, status: 400 });
    }
    expect((await requestJson(monitor.url, '/api/v1/audit-log')).status).toBe(401);
  });
});
