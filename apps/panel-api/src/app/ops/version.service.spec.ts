import { freePort } from '@shared/testing';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadPanelConfig } from '../config/panel-config';
import { HttpReleaseFeed } from './release-feed';
import { VersionService } from './version.service';

interface Feed {
  server: Server;
  url: string;
  hits: () => number;
  answer: (status: number, body: string) => void;
}

async function startFeed(): Promise<Feed> {
  let hits = 0;
  let reply = { status: 200, body: JSON.stringify({ tag_name: 'v9.1.0', html_url: 'https://example.test/r/9.1.0', published_at: '2030-01-01T00:00:00Z' }) };
  const server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/releases/latest`,
    hits: () => hits,
    answer: (status, body) => {
      reply = { status, body };
    },
  };
}

function serviceFor(env: Record<string, string>): VersionService {
  const config = loadPanelConfig({ APP_DATA_DIR: '/tmp/unused', ...env });
  return new VersionService(config, new HttpReleaseFeed(config.version.updateCheckUrl, 'panel-api/test'));
}

describe('VersionService', () => {
  let feed: Feed;

  beforeEach(async () => {
    feed = await startFeed();
  });

  afterEach(async () => {
    await new Promise((resolve) => feed.server.close(resolve));
  });

  it('uses APP_VERSION unless it is empty or 0.0.0', () => {
    expect(serviceFor({ APP_VERSION: '3.2.1', GIT_SHA: 'abc123' }).info()).toMatchObject({ version: '3.2.1', git_sha: 'abc123' });
    const packaged = serviceFor({ APP_VERSION: '0.0.0' }).info();
    expect(packaged.version).toBe(packaged.package_version);
    expect(serviceFor({ APP_VERSION: '' }).info().version).toBe(packaged.package_version);
    expect(packaged.node_version).toBe(process.version);
  });

  it('reports a newer release, caches it, and asks again only when forced', async () => {
    const service = serviceFor({ APP_VERSION: '1.0.0', APP_UPDATE_CHECK_URL: feed.url });
    const first = await service.checkForUpdate(false);
    expect(first).toMatchObject({ ok: true, latest_version: '9.1.0', update_available: true, cached: false, release_url: 'https://example.test/r/9.1.0' });
    const second = await service.checkForUpdate(false);
    expect(second.cached).toBe(true);
    expect(feed.hits()).toBe(1);
    feed.answer(200, JSON.stringify({ tag_name: 'v1.0.0' }));
    const forced = await service.checkForUpdate(true);
    expect(forced).toMatchObject({ cached: false, latest_version: '1.0.0', update_available: false });
    expect(feed.hits()).toBe(2);
  });

  it('answers softly with a reason when the feed fails or is unreachable', async () => {
    feed.answer(502, 'bad gateway');
    const service = serviceFor({ APP_VERSION: '1.0.0', APP_UPDATE_CHECK_URL: feed.url });
    expect(await service.checkForUpdate(true)).toMatchObject({ ok: false, enabled: true, reason: expect.stringContaining('HTTP 502') });
    feed.answer(200, '<html>');
    expect((await service.checkForUpdate(true)).reason).toContain('not JSON');
    const unreachable = serviceFor({ APP_VERSION: '1.0.0', APP_UPDATE_CHECK_URL: `http://127.0.0.1:${await freePort()}/feed` });
    expect(await unreachable.checkForUpdate(true)).toMatchObject({ ok: false, reason: expect.stringContaining('ECONNREFUSED') });
  });

  it('does not contact the feed when APP_UPDATE_CHECK=0', async () => {
    const service = serviceFor({ APP_UPDATE_CHECK: '0', APP_UPDATE_CHECK_URL: feed.url });
    expect(await service.checkForUpdate(true)).toMatchObject({ enabled: false, ok: false, reason: expect.stringContaining('APP_UPDATE_CHECK=0') });
    expect(feed.hits()).toBe(0);
  });

  it('refuses a plain-http feed that is not on a loopback address', () => {
    expect(() => loadPanelConfig({ APP_DATA_DIR: '/tmp/unused', APP_UPDATE_CHECK_URL: 'http://example.com/feed' })).toThrow(/APP_UPDATE_CHECK_URL/);
    expect(() => loadPanelConfig({ APP_DATA_DIR: '/tmp/unused', APP_UPDATE_CHECK_URL: 'https://example.com/feed' })).not.toThrow();
  });
});
