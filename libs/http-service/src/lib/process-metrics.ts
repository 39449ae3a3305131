import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Gauges of prom-client's default set whose names end in `_total`, which Prometheus reserves for
 * counters (`promtool check metrics` reports them). Their per-type twins without the suffix
 * (`nodejs_active_handles{type=…}` and so on) stay, and their sum is the same figure.
 */
const GAUGES_NAMED_LIKE_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** The usual process and Node.js metrics in `registry`, without names promtool reports. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
}
