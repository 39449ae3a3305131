// Ingest benchmark: signed GitHub deliveries per second and p50/p99 latency at a fixed concurrency,
// repo-monitor on SQLite against a bare node:http server that only verifies the same signature.
// Usage: npx nx build repo-monitor && node tools/bench/repo-monitor-ingest.mjs [--deliveries 5000] [--concurrency 32]
// (REPO_MONITOR_MAIN=<other main.js> benchmarks another build instead of dist/apps/repo-monitor/main.js)
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INBOUND_SECRET, MAIN, freePort, issuePayload, percentile, postDelivery, requireBuild, startService } from './repo-monitor-common.mjs';

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

/** CPU seconds (user + system) the process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function run(baseUrl, label, prefix, pid) {
  const bodies = Array.from({ length: DELIVERIES + WARMUP }, (_, index) => issuePayload(index + 1, `bench issue ${index + 1}`));
  let next = 0;
  const latencies = [];
  let failures = 0;
  const worker = async (measure, end) => {
    for (;;) {
      if (next >= end) return;
      const index = next++;
      const started = process.hrtime.bigint();
      const status = await postDelivery(baseUrl, 'issues', bodies[index], `${prefix}-${index}`);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (status !== 202) failures++;
      if (measure) latencies.push(elapsedMs);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(false, WARMUP)));
  const cpuBefore = pid === undefined ? undefined : cpuSeconds(pid);
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(true, WARMUP + DELIVERIES)));
  const seconds = (Date.now() - started) / 1000;
  const cpuAfter = pid === undefined ? undefined : cpuSeconds(pid);
  latencies.sort((a, b) => a - b);
  const cpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? ((cpuAfter - cpuBefore) * 1000) / DELIVERIES : undefined;
  const result = { label, perSecond: DELIVERIES / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
  console.log(
    `${label.padEnd(28)} ${result.perSecond.toFixed(0).padStart(7)} deliveries/s   p50 ${result.p50.toFixed(2).padStart(7)} ms   p99 ${result.p99.toFixed(2).padStart(7)} ms   non-202 ${failures}` +
      (cpuMs === undefined ? '' : `   service CPU ${cpuMs.toFixed(2)} ms/delivery`),
  );
  return result;
}

/** Stored deliveries by processing status, from the service's own /metrics. */
async function deliveryStatuses(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const counts = {};
  for (const match of text.matchAll(/^monitor_webhook_deliveries_stored\{status="(\w+)"\} (\d+)/gm)) counts[match[1]] = Number(match[2]);
  return counts;
}

/**
 * What the background processing did with the run's deliveries: how many were applied by the time
 * the last one was answered, and how long the rest took to drain (ingest goes first on SQLite).
 */
async function reportProcessing(baseUrl, sent, pid) {
  const started = Date.now();
  const cpuBefore = cpuSeconds(pid);
  const atEnd = await deliveryStatuses(baseUrl);
  let now = atEnd;
  while (((now.accepted ?? 0) > 0 || (now.processed ?? 0) + (now.failed ?? 0) < sent) && Date.now() - started < 120_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    now = await deliveryStatuses(baseUrl);
  }
  const total = sent;
  const cpuAfter = cpuSeconds(pid);
  const drained = sent - (atEnd.processed ?? 0);
  const cpuPerDelivery = cpuBefore !== undefined && cpuAfter !== undefined && drained > 0 ? ((cpuAfter - cpuBefore) * 1000) / drained : undefined;
  console.log(
    `processing: ${atEnd.processed ?? 0} of ${total} deliveries applied when the last was answered; the other ${sent - (atEnd.processed ?? 0)} ` +
      `${(now.accepted ?? 0) > 0 ? `not drained after ${((Date.now() - started) / 1000).toFixed(1)} s` : `drained in ${((Date.now() - started) / 1000).toFixed(1)} s`}` +
      ` (${now.failed ?? 0} failed)` +
      (cpuPerDelivery === undefined ? '' : `; service CPU while draining ${cpuPerDelivery.toFixed(2)} ms/delivery`),
  );
}

requireBuild();
console.log(`repo-monitor ingest benchmark: ${DELIVERIES} signed deliveries (after ${WARMUP} warm-up), concurrency ${CONCURRENCY}, SQLite, ${MAIN}`);
const dir = mkdtempSync(join(tmpdir(), 'repo-monitor-bench-'));
const bare = await bareServer();
const service = await startService({
  MONITOR_DATABASE_DRIVER: 'sqlite',
  MONITOR_DATABASE_URL: `file:${join(dir, 'bench.db')}`,
  MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
});
try {
  const baseline = await run(bare.url, 'bare node:http + HMAC', 'bare');
  // The service's CPU per delivery (background processing in the same window included) depends far
  // less on what else the machine runs than throughput does.
  const monitor = await run(service.url, 'repo-monitor (SQLite)', 'monitor', service.child.pid);
  console.log(`ratio repo-monitor / bare: throughput ${(monitor.perSecond / baseline.perSecond).toFixed(2)}x, p99 ${(monitor.p99 / baseline.p99).toFixed(2)}x`);
  const ratio = monitor.perSecond / baseline.perSecond;
  const met = monitor.perSecond >= 1000 && monitor.p99 < 50;
  console.log(`target (>= 1000 deliveries/s and p99 < 50 ms): ${met ? 'met' : 'NOT met'}`);
  console.log(`target (>= 0.30 of the bare server's throughput and p99 < 50 ms): ${ratio >= 0.3 && monitor.p99 < 50 ? 'met' : 'NOT met'}`);
  await reportProcessing(service.url, WARMUP + DELIVERIES, service.child.pid);
} finally {
  await service.stop();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
}
