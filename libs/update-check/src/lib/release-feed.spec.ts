import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareVersions, describeReleaseFetchFailure, fetchLatestRelease, latestReleaseOf } from './release-feed';

describe('compareVersions', () => {
  it('orders semantic versions and refuses to guess for anything else', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('v2.0.0', '2.0.0')).toBe(0);
    expect(compareVersions('2.0.0-rc.1', '2.0.0')).toBe(-1);
    expect(compareVersions('2.0.0-rc.10', '2.0.0-rc.9')).toBe(1);
    expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0);
    expect(compareVersions('nightly', '1.0.0')).toBeUndefined();
  });
});

describe('latestReleaseOf', () => {
  it('reads /releases/latest and the first published non-prerelease of /releases', () => {
    expect(latestReleaseOf({ tag_name: 'v1.2.3', html_url: 'https://h/r', published_at: '2024-01-01T00:00:00Z' })).toEqual({
      version: '1.2.3',
      url: 'https://h/r',
      publishedAt: '2024-01-01T00:00:00Z',
    });
    const list = [{ tag_name: 'v3.0.0', draft: true }, { tag_name: 'v2.1.0-rc.1', prerelease: true }, { tag_name: 'v2.0.0' }];
    expect(latestReleaseOf(list)).toEqual({ version: '2.0.0', url: null, publishedAt: null });
    expect(() => latestReleaseOf([], 'the update source')).toThrow('the update source has no release with a tag_name');
  });
});

describe('fetchLatestRelease', () => {
  let server: Server;
  let origin: string;
  let answer: { status: number; body: string; location?: string; hang?: boolean };
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      if (answer.hang) return;
      response.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.location ? { location: answer.location } : {}) });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    paths.length = 0;
  });

  const failureOf = async (request: Parameters<typeof fetchLatestRelease>[0]): Promise<string> => {
    try {
      await fetchLatestRelease(request);
    } catch (error) {
      return describeReleaseFetchFailure(error, request.sourceName);
    }
    throw new Error('expected the release fetch to fail');
  };

  it('fetches and parses the latest release', async () => {
    answer = { status: 200, body: JSON.stringify({ tag_name: 'v9.1.0' }) };
    await expect(fetchLatestRelease({ url: `${origin}/releases/latest`, headers: { accept: 'application/json' } })).resolves.toMatchObject({ version: '9.1.0' });
  });

  it('does not follow a redirect and says so', async () => {
    answer = { status: 302, body: '', location: '/elsewhere' };
    const reason = await failureOf({ url: `${origin}/releases/latest`, headers: {}, sourceName: 'the update source', redirectAdvice: 'set X to the final address' });
    expect(reason).toBe('the update source redirected (HTTP 302); redirects are not followed: set X to the final address');
    expect(paths).toEqual(['/releases/latest']);
  });

  it('describes HTTP errors, non-JSON answers, timeouts and refused connections', async () => {
    answer = { status: 502, body: '{}' };
    expect(await failureOf({ url: origin, headers: {} })).toBe('the release feed answered HTTP 502');
    answer = { status: 200, body: '<html>' };
    expect(await failureOf({ url: origin, headers: {} })).toContain('not JSON');
    answer = { status: 200, body: '', hang: true };
    expect(await failureOf({ url: origin, headers: {}, timeoutMs: 100, sourceName: 'the feed' })).toBe('the feed timed out');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await failureOf({ url: `http://127.0.0.1:${port}/`, headers: {} })).toContain('ECONNREFUSED');
  });
});
