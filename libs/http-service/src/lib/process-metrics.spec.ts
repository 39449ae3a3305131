import { Registry } from 'prom-client';
import { collectProcessMetrics } from './process-metrics';

describe('collectProcessMetrics', () => {
  it('has the usual process and Node.js metrics but no gauge named like a counter', async () => {
    const registry = new Registry();
    collectProcessMetrics(registry);
    const metrics = await registry.getMetricsAsJSON();
    const names = metrics.map((metric) => metric.name);
    expect(names).toEqual(expect.arrayContaining(['process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_active_handles']));
    const misnamed = metrics.filter((metric) => metric.name.endsWith('_total') && String(metric.type) !== 'counter').map((metric) => metric.name);
    expect(misnamed).toEqual([]);
  });
});
