// Ingest benchmark: signed GitHub deliveries per second and p50/p99 latency at a fixed concurrency,
// repo-monitor on SQLite against a bare node:http server that only verifies the same signature.
// Usage: npx nx build repo-monitor && node tools/bench/repo-monitor-ingest.mjs [--deliveries 5000] [--concurrency 32]
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INBOUND_SECRET, freePort, issuePayload, percentile, postDelivery, requireBuild, startService } from './repo-monitor-common.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const DELIVERIES = option('deliveries', 5000);
const CONCURRENCY = option('concurrency', 32);
const WARMUP = Math.min(500, Math.floor(DELIVERIES / 10));

async function bareServer() {
  const port = await freePort();
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', INBOUND_SECRET).update(body).digest('hex')}`);
      const given = Buffer.from(String(request.headers['x-hub-signature-256'] ?? ''));
      const ok = expected.length === given.length && timingSafeEqual(expected, given);
      response.writeHead(ok ? 202 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'accepted', delivery_id: request.headers['x-github-delivery'] }));
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function run(baseUrl, label, prefix) {
  const bodies = Array.from({ length: DELIVERIES + WARMUP }, (_, index) => issuePayload(index + 1, `bench issue ${index + 1}`));
  let next = 0;
  const latencies = [];
  let failures = 0;
  const worker = async (measure, end) => {
    for (;;) {
      const index = next++;
      if (index >= end) return;
      const started = process.hrtime.bigint();
      const status = await postDelivery(baseUrl, 'issues', bodies[index], `${prefix}-${index}`);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (status !== 202) failures++;
      if (measure) latencies.push(elapsedMs);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(false, WARMUP)));
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(true, WARMUP + DELIVERIES)));
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const result = { label, perSecond: DELIVERIES / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
  console.log(
    `${label.padEnd(28)} ${result.perSecond.toFixed(0).padStart(7)} deliveries/s   p50 ${result.p50.toFixed(2).padStart(7)} ms   p99 ${result.p99.toFixed(2).padStart(7)} ms   non-202 ${failures}`,
  );
  return result;
}

requireBuild();
console.log(`repo-monitor ingest benchmark: ${DELIVERIES} signed deliveries (after ${WARMUP} warm-up), concurrency ${CONCURRENCY}, SQLite`);
const dir = mkdtempSync(join(tmpdir(), 'repo-monitor-bench-'));
const bare = await bareServer();
const service = await startService({
  MONITOR_DATABASE_DRIVER: 'sqlite',
  MONITOR_DATABASE_URL: `file:${join(dir, 'bench.db')}`,
  MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
});
try {
  const baseline = await run(bare.url, 'bare node:http + HMAC', 'bare');
  const monitor = await run(service.url, 'repo-monitor (SQLite)', 'monitor');
  console.log(`ratio repo-monitor / bare: throughput ${(monitor.perSecond / baseline.perSecond).toFixed(2)}x, p99 ${(monitor.p99 / baseline.p99).toFixed(2)}x`);
  const met = monitor.perSecond >= 1000 && monitor.p99 < 50;
  console.log(`target (>= 1000 deliveries/s and p99 < 50 ms): ${met ? 'met' : 'NOT met'}`);
} finally {
  await service.stop();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
}
