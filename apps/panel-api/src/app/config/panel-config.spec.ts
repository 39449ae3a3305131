import { loadPanelConfig } from './panel-config';

describe('APP_TRUST_PROXY', () => {
  const load = (value?: string) => loadPanelConfig(value === undefined ? {} : { APP_TRUST_PROXY: value }, { defaultDataDir: '/tmp/panel-config-spec' }).http.trustProxy;

  it('takes true/false, a hop count or a list of proxy addresses and ranges', () => {
    expect(load()).toBe(false);
    expect(load('true')).toBe(true);
    expect(load('false')).toBe(false);
    expect(load('1')).toBe(1);
    expect(load('10.0.0.0/8, 192.0.2.7')).toEqual(['10.0.0.0/8', '192.0.2.7']);
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => load('sometimes')).toThrow(/APP_TRUST_PROXY/);
    expect(() => load('10.0.0.0/40')).toThrow(/APP_TRUST_PROXY/);
  });
});
