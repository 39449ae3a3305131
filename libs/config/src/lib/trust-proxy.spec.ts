import { IsOptional, validateSync } from 'class-validator';
import { IsTrustProxy, parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it.each([
    ['true', 1],
    ['TRUE', 1],
    ['false', false],
    ['', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['32', 32],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 172.16.0.0/12', ['10.0.0.0/8', '172.16.0.0/12']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
    ['127.0.0.1/32', ['127.0.0.1/32']],
  ])('reads %j', (text, expected) => {
    expect(parseTrustProxy(text)).toEqual(expected);
  });

  it.each(['yes', '33', '-1', '1.5', '10.0.0.1,', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/', 'proxy.local', '300.1.1.1', '10.0.0.1/8/8'])('refuses %j', (text) => {
    expect(parseTrustProxy(text)).toBeUndefined();
  });
});

describe('IsTrustProxy', () => {
  class Env {
    @IsOptional() @IsTrustProxy() TRUST_PROXY?: string;
  }

  it('names the accepted forms', () => {
    const env = Object.assign(new Env(), { TRUST_PROXY: 'sometimes' });
    const [error] = validateSync(env);
    expect(Object.values(error?.constraints ?? {})).toEqual([
      'TRUST_PROXY must be true, false, a hop count (0-32) or a comma-separated list of proxy IP addresses/CIDR ranges',
    ]);
    expect(validateSync(Object.assign(new Env(), { TRUST_PROXY: '10.0.0.0/8' }))).toEqual([]);
  });
});
