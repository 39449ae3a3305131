import { promtoolCheckMetrics } from '@shared/testing';
import { INBOUND_SECRET, sendDelivery } from './github-fixtures';
import { RunningMonitor, startMonitor } from './harness';

describe('/metrics against promtool check metrics', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET } });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('has no findings on a real scrape, with series of every kind present', async () => {
    expect((await sendDelivery(monitor.url, 'ping', { zen: 'promtool' })).status).toBe(202);
    const response = await fetch(`${monitor.url}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('monitor_webhook_deliveries_total{result="accepted"}');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(promtoolCheckMetrics(text)).toEqual({ status: 0, findings: [] });
  });
});
