import { type HostResolver, classifyAddress, isPublicAddress, resolveTarget } from './address-guard';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['140.82.112.3', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.10.0.3', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fd12:3456::1', 'unique_local'],
    ['fc00::1', 'unique_local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['fe80::1%eth0', 'link_local'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('refuses non-addresses loudly', () => {
    expect(() => classifyAddress('example.com')).toThrow(TypeError);
    expect(isPublicAddress('1.1.1.1')).toBe(true);
  });
});

describe('resolveTarget', () => {
  it('refuses bad URLs, other schemes and embedded credentials', async () => {
    expect(await resolveTarget('not a url')).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await resolveTarget('ftp://example.com/x')).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await resolveTarget('https://user:pw@example.com/x')).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await resolveTarget('http://example.com/x', { requireHttps: true })).toMatchObject({ ok: false, reason: 'invalid_url' });
    const publicHost: HostResolver = async () => [{ address: '93.184.216.34', family: 4 }];
    const lanHost: HostResolver = async () => [{ address: '192.168.1.20', family: 4 }];
    expect(await resolveTarget('http://hooks.example.com/x', { plainHttp: 'refuse', resolver: lanHost, allowPrivate: true })).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await resolveTarget('http://hooks.example.com/x', { plainHttp: 'private_only', resolver: publicHost })).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await resolveTarget('http://receiver.lan/x', { plainHttp: 'private_only', resolver: lanHost, allowPrivate: true })).toMatchObject({ ok: true });
    expect(await resolveTarget('https://hooks.example.com/x', { plainHttp: 'refuse', resolver: publicHost })).toMatchObject({ ok: true });
    expect(await resolveTarget('http://hooks.example.com/x', { plainHttp: 'allow', resolver: publicHost })).toMatchObject({ ok: true });
  });

  it('refuses literal private and metadata addresses unless allowed', async () => {
    expect(await resolveTarget('http://169.254.169.254/latest/meta-data')).toMatchObject({ ok: false, reason: 'private_target_refused' });
    expect(await resolveTarget('http://[fd00:ec2::254]/')).toMatchObject({ ok: false, reason: 'private_target_refused' });
    expect(await resolveTarget('http://127.0.0.1:9/', { allowPrivate: true })).toMatchObject({ ok: true, address: { address: '127.0.0.1', family: 4 } });
  });

  it('refuses a name when any of its addresses is private', async () => {
    const resolver = async (): Promise<Array<{ address: string; family: 4 | 6 }>> => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    expect(await resolveTarget('https://hooks.example.test/x', { resolver })).toMatchObject({ ok: false, reason: 'private_target_refused' });
  });

  it('resolves localhost through the system resolver and refuses it', async () => {
    expect(await resolveTarget('http://localhost:8080/hook')).toMatchObject({ ok: false, reason: 'private_target_refused' });
  });

  it('reports a name that does not resolve', async () => {
    expect(await resolveTarget('https://no-such-host.invalid/hook')).toMatchObject({ ok: false, reason: 'dns_failed' });
  });

  it('returns the first vetted public address', async () => {
    const resolver = async (): Promise<Array<{ address: string; family: 4 | 6 }>> => [{ address: '93.184.216.34', family: 4 }];
    expect(await resolveTarget('https://hooks.example.test/x', { resolver })).toMatchObject({ ok: true, hostname: 'hooks.example.test', address: { address: '93.184.216.34' } });
  });
});
