import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadMonitorConfig, MonitorConfig } from '../config/monitor-config';
import { SystemVersionService } from './system-version.service';
import { fetchThrough } from '@shared/outbound-http';
import { compareVersions, ReleaseFetch } from '@shared/update-check';

const UPDATE_URL = 'https://updates.example.test/repos/acme/repo-monitor/releases/latest';

describe('SystemVersionService update check', () => {
  let server: Server;
  let origin: string;
  let answer: { status: number; body: string; location?: string };
  const seen: Array<{ path: string; authorization: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
      response.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.location ? { location: answer.location } : {}) });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  // The configured URL stays HTTPS (validated); the production transport is pointed at the local server.
  const toLocal: ReleaseFetch = (url, init) => fetchThrough(undefined)(url.replace('https://updates.example.test', origin), init);

  function service(env: Record<string, string>): SystemVersionService {
    const config: MonitorConfig = loadMonitorConfig({ env: { MONITOR_DATABASE_URL: 'file:/tmp/unused.db', APP_VERSION: '1.2.3', MONITOR_UPDATE_CHECK_URL: UPDATE_URL, ...env } });
    return new SystemVersionService(config, toLocal);
  }

  it('refuses a plain-HTTP update source at configuration time', () => {
    expect(() => loadMonitorConfig({ env: { MONITOR_UPDATE_CHECK_URL: 'http://updates.example.test/latest' } })).toThrow(/MONITOR_UPDATE_CHECK_URL/);
  });

  it('finds a newer release, sends the optional token and caches the answer', async () => {
    answer = { status: 200, body: JSON.stringify({ tag_name: 'v1.4.0', html_url: 'https://github.com/acme/repo-monitor/releases/v1.4.0', published_at: '2026-01-01T00:00:00Z' }) };
    const versions = service({ MONITOR_UPDATE_CHECK_TOKEN: 'update-token' });
    const first = await versions.check(false);
    expect(first).toMatchObject({ enabled: true, ok: true, current_version: '1.2.3', latest_version: '1.4.0', update_available: true, cached: false, reason: null });
    expect(seen).toEqual([{ path: '/repos/acme/repo-monitor/releases/latest', authorization: 'Bearer update-token' }]);
    expect(await versions.check(false)).toMatchObject({ cached: true, latest_version: '1.4.0' });
    expect(seen).toHaveLength(1);
    answer = { status: 200, body: JSON.stringify({ tag_name: '1.2.3' }) };
    expect(await versions.check(true)).toMatchObject({ cached: false, update_available: false });
  });

  it('turns HTTP errors and non-JSON answers into soft failures', async () => {
    const versions = service({});
    answer = { status: 502, body: 'bad gateway' };
    const failed = await versions.check(true);
    expect(failed).toMatchObject({ ok: false, latest_version: null, update_available: null });
    expect(failed.reason).toContain('HTTP 502');
    expect(seen[0].authorization).toBeUndefined();
    answer = { status: 200, body: '<html>' };
    expect((await versions.check(true)).reason).toContain('not JSON');
  });

  it('does not follow a redirect with the token and reports it as a soft failure', async () => {
    const versions = service({ MONITOR_UPDATE_CHECK_TOKEN: 'update-token' });
    answer = { status: 302, body: '', location: '/elsewhere/releases/latest' };
    const redirected = await versions.check(true);
    expect(redirected).toMatchObject({ ok: false, latest_version: null });
    expect(redirected.reason).toContain('redirected (HTTP 302)');
    expect(seen.map((request) => request.path)).toEqual(['/repos/acme/repo-monitor/releases/latest']);
  });

  it('orders semantic versions', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBeLessThan(0);
    expect(compareVersions('main', '1.0.0')).toBeUndefined();
  });
});
