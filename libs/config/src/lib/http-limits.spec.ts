import { DEFAULT_HTTP_SERVER_LIMITS, resolveHttpServerLimits } from './http-limits';

const VARIABLES = {
  requestTimeoutMs: 'X_REQUEST',
  headersTimeoutMs: 'X_HEADERS',
  keepAliveTimeoutMs: 'X_KEEP_ALIVE',
  maxConnections: 'X_MAX',
  maxConnectionsPerAddress: 'X_PER_ADDRESS',
};

describe('resolveHttpServerLimits', () => {
  it('bounds every time and connection count by default', () => {
    const { limits, issues } = resolveHttpServerLimits({}, VARIABLES);
    expect(issues).toEqual([]);
    expect(limits).toEqual(DEFAULT_HTTP_SERVER_LIMITS);
    for (const value of Object.values(limits)) expect(value).toBeGreaterThan(0);
  });

  it('lowers the default header time and per-address cap to a shorter request time and a smaller total', () => {
    const { limits, issues } = resolveHttpServerLimits({ requestTimeoutMs: 3_000, maxConnections: 20 }, VARIABLES);
    expect(issues).toEqual([]);
    expect(limits).toMatchObject({ requestTimeoutMs: 3_000, headersTimeoutMs: 3_000, maxConnections: 20, maxConnectionsPerAddress: 20 });
  });

  it('names the variable that breaks a rule', () => {
    expect(resolveHttpServerLimits({ requestTimeoutMs: 3_000, headersTimeoutMs: 5_000 }, VARIABLES).issues).toEqual([
      { variable: 'X_HEADERS', rule: 'must not be longer than X_REQUEST' },
    ]);
    expect(resolveHttpServerLimits({ maxConnections: 10, maxConnectionsPerAddress: 11 }, VARIABLES).issues).toEqual([
      { variable: 'X_PER_ADDRESS', rule: 'must not be more than X_MAX' },
    ]);
    expect(resolveHttpServerLimits({ keepAliveTimeoutMs: 0 }, VARIABLES).issues.map((issue) => issue.variable)).toEqual(['X_KEEP_ALIVE']);
  });
});
