import { parseProxyUrl, proxyProblem } from './account-proxy';

describe('account proxies', () => {
  it('accepts the proxies people write, the default port of http:// included', () => {
    expect(parseProxyUrl('socks5://127.0.0.1:1080')).toEqual({ type: 'socks5', host: '127.0.0.1', port: 1080 });
    expect(parseProxyUrl('SOCKS5://user:pa%25ss@proxy.example:1080')).toEqual({ type: 'socks5', host: 'proxy.example', port: 1080, username: 'user', password: 'pa%ss' });
    expect(parseProxyUrl('socks5h://proxy.example:9050/')).toEqual({ type: 'socks5', host: 'proxy.example', port: 9050 });
    expect(parseProxyUrl('http://10.0.0.1:80')).toEqual({ type: 'http', host: '10.0.0.1', port: 80 });
  });

  it('says what to fix, never "must be socks5://" to a socks5:// address', () => {
    expect(parseProxyUrl('socks5://127.0.0.1')).toBeNull();
    expect(proxyProblem('socks5://127.0.0.1')).toBe('The proxy has no port: add it after the host, as in socks5://127.0.0.1:1080.');
    expect(proxyProblem('socks5://127.0.0.1:99999')).toBe('The proxy port must be a number from 1 to 65535.');
    expect(proxyProblem('ftp://127.0.0.1:21')).toMatch(/^The proxy type "ftp" is not supported/);
    expect(proxyProblem('127.0.0.1:1080')).toMatch(/^The proxy type "127.0.0.1" is not supported|^The proxy is not an address/);
    expect(proxyProblem('just words')).toMatch(/^The proxy is not an address/);
    expect(proxyProblem('socks5://127.0.0.1:1080/path')).toBe('The proxy address must end after the port (no path or query).');
    expect(proxyProblem('mtproxy://abc@127.0.0.1:443')).toMatch(/MTProxy secret/);
    expect(proxyProblem('socks5://u%zz:p@127.0.0.1:1080')).toMatch(/broken %-escape/);
    for (const text of ['socks5://127.0.0.1', 'ftp://x:1', 'socks5://127.0.0.1:1080/path']) expect(proxyProblem(text)).not.toMatch(/must be socks5/);
  });
});
