import { LatestRelease } from './release-feed';
import { UPDATE_CHECK_FAILURE_TTL_MS, UpdateCheck, UpdateCheckOptions } from './update-check';

describe('UpdateCheck', () => {
  let asked = 0;
  let answer: () => Promise<LatestRelease>;
  const failures: string[] = [];
  const check = (options: Partial<UpdateCheckOptions> = {}) =>
    new UpdateCheck({
      currentVersion: () => '1.2.0',
      enabled: true,
      disabledReason: 'switched off by TEST_UPDATE_CHECK',
      latestRelease: () => {
        asked++;
        return answer();
      },
      sourceName: 'the test feed',
      onFailure: (reason) => failures.push(reason),
      ...options,
    });

  beforeEach(() => {
    asked = 0;
    failures.length = 0;
    answer = async () => ({ version: '1.3.0', url: 'https://example.test/r/1.3.0', publishedAt: null });
  });
  afterEach(() => jest.restoreAllMocks());

  it('asks once for concurrent checks, then answers from the cache until forced', async () => {
    const updates = check();
    const [first, second] = await Promise.all([updates.check(false), updates.check(false)]);
    expect(first).toMatchObject({ enabled: true, ok: true, latest_version: '1.3.0', update_available: true, cached: false });
    expect(second).toBe(first);
    expect(await updates.check(false)).toMatchObject({ cached: true, latest_version: '1.3.0' });
    expect(asked).toBe(1);
    expect(await updates.check(true)).toMatchObject({ cached: false });
    expect(asked).toBe(2);
  });

  it('keeps a failure for five minutes only, with its reason', async () => {
    answer = async () => {
      throw new Error('the test feed answered HTTP 503');
    };
    const updates = check();
    expect(await updates.check(false)).toMatchObject({ ok: false, reason: 'update check failed: the test feed answered HTTP 503' });
    expect(failures).toEqual(['the test feed answered HTTP 503']);
    expect((await updates.check(false)).cached).toBe(true);
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + UPDATE_CHECK_FAILURE_TTL_MS + 1);
    answer = async () => ({ version: '1.2.0', url: null, publishedAt: null });
    expect(await updates.check(false)).toMatchObject({ ok: true, cached: false, update_available: false });
    expect(asked).toBe(2);
  });

  it('says why it cannot compare versions that are not semantic', async () => {
    answer = async () => ({ version: 'nightly-2026', url: null, publishedAt: null });
    expect(await check().check(false)).toMatchObject({ ok: true, update_available: null, reason: expect.stringContaining('not both semantic versions') });
  });

  it('asks nobody when switched off', async () => {
    expect(await check({ enabled: false }).check(true)).toMatchObject({ enabled: false, ok: false, reason: 'switched off by TEST_UPDATE_CHECK' });
    expect(asked).toBe(0);
  });
});
