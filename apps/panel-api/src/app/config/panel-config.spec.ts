import { loadPanelConfig, panelSecrets } from './panel-config';

describe('APP_TRUST_PROXY', () => {
  const load = (value?: string) => loadPanelConfig(value === undefined ? {} : { APP_TRUST_PROXY: value }, { defaultDataDir: '/tmp/panel-config-spec' }).http.trustProxy;

  it('takes true/false, a hop count or a list of proxy addresses and ranges', () => {
    expect(load()).toBe(false);
    expect(load('true')).toBe(1);
    expect(load('false')).toBe(false);
    expect(load('1')).toBe(1);
    expect(load('10.0.0.0/8, 192.0.2.7')).toEqual(['10.0.0.0/8', '192.0.2.7']);
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => load('sometimes')).toThrow(/APP_TRUST_PROXY/);
    expect(() => load('10.0.0.0/40')).toThrow(/APP_TRUST_PROXY/);
  });
});

describe('APP_METRICS_TOKEN', () => {
  const load = (value?: string) => loadPanelConfig(value === undefined ? {} : { APP_METRICS_TOKEN: value }, { defaultDataDir: '/tmp/panel-config-spec' });

  it('is optional; an empty value means no token', () => {
    expect(load().metrics.token).toBeUndefined();
    expect(load('').metrics.token).toBeUndefined();
    expect(load('scrape-token-0123456789').metrics.token).toBe('scrape-token-0123456789');
  });

  it('refuses a short token or one with spaces, naming the variable but not the value', () => {
    for (const bad of ['short', 'with spaces in the token']) {
      expect(() => load(bad)).toThrow(/APP_METRICS_TOKEN/);
      expect(() => load(bad)).not.toThrow(new RegExp(bad));
    }
  });

  it('is among the secrets kept out of logs', () => {
    expect(panelSecrets(load('scrape-token-0123456789'))).toContain('scrape-token-0123456789');
  });
});

describe('APP_TELEGRAM_GATEWAY (test only)', () => {
  const load = (env: Record<string, string>) => loadPanelConfig(env, { defaultDataDir: '/tmp/panel-config-spec' }).telegram;

  it('is GramJS unless the simulator is named with a loopback tcp:// address', () => {
    expect(load({})).toMatchObject({ gateway: 'gramjs', simulatorUrl: undefined });
    expect(load({ APP_TELEGRAM_GATEWAY: 'simulator', APP_TELEGRAM_SIMULATOR_URL: 'tcp://127.0.0.1:42001' })).toMatchObject({ gateway: 'simulator', simulatorUrl: 'tcp://127.0.0.1:42001' });
  });

  it('refuses the simulator without an address, at another host, or an unknown gateway', () => {
    expect(() => load({ APP_TELEGRAM_GATEWAY: 'simulator' })).toThrow(/APP_TELEGRAM_SIMULATOR_URL/);
    for (const url of ['tcp://10.0.0.5:42001', 'tcp://example.com:42001', 'http://127.0.0.1:42001']) {
      expect(() => load({ APP_TELEGRAM_GATEWAY: 'simulator', APP_TELEGRAM_SIMULATOR_URL: url })).toThrow(/APP_TELEGRAM_SIMULATOR_URL/);
    }
    expect(() => load({ APP_TELEGRAM_GATEWAY: 'mtproto' })).toThrow(/APP_TELEGRAM_GATEWAY/);
  });
});
