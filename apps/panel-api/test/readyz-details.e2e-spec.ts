import { requestJson, testDatabaseDriver } from '@shared/testing';
import { hostname } from 'node:os';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

/** Issue 19 item 9: /readyz without a token tells nothing about the machine. */
describe('/readyz details', () => {
  let panel: RunningPanel;

  beforeAll(async () => {
    panel = await startPanel();
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('shows no host name, pid or instance id without a token', async () => {
    const anonymous = await requestJson<Record<string, unknown>>(panel.url, '/readyz');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({
      status: 'ready',
      database: { driver: expect.any(String), status: 'ok' },
      read_only: false,
      data_directory: { writable: true, error: null },
      // On PostgreSQL the cluster's leader lease replaces the file lock (docs/scaling.md).
      scheduler_lock: { enabled: testDatabaseDriver() !== 'postgres', held: true },
    });
    const text = anonymous.text;
    expect(text).not.toContain(hostname());
    expect(text).not.toContain(String(process.pid));
    expect(text).not.toMatch(/instance_id|holder|pid/);
    // A token that does not verify gets the same short answer.
    expect((await requestJson(panel.url, '/readyz', { token: 'not-a-token' })).body).toEqual(anonymous.body);
  });

  it('keeps the details for a caller with a valid token', async () => {
    const token = await loginAsAdmin(panel);
    const detailed = await requestJson<{ scheduler_lock: { instance_id: string; holder: { hostname: string; pid: number } } }>(panel.url, '/readyz', { token });
    expect(detailed.status).toBe(200);
    if (testDatabaseDriver() === 'postgres') {
      expect(detailed.body.scheduler_lock).toMatchObject({ enabled: false, held: true, instance_id: expect.any(String), replaced_by: expect.stringContaining('cluster leader') });
    } else {
      expect(detailed.body.scheduler_lock).toMatchObject({ enabled: true, held: true, instance_id: expect.any(String), holder: { hostname: hostname(), pid: process.pid } });
    }
  });
});
