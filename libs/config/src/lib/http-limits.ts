import { ConfigIssue } from './errors';

/**
 * How long a client may take and how many connections it may hold: the bounds that keep slow or
 * many clients from exhausting the service's sockets and file descriptors (docs/reverse-proxy.md).
 */
export interface HttpServerLimits {
  /** The whole request, headers and body, must have arrived within this time (then 408 and close). */
  requestTimeoutMs: number;
  /** The request headers must have arrived within this time (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** Open connections in total; one more is closed on accept, before anything is read from it. */
  maxConnections: number;
  /** Open connections from one peer address (trusted proxies excepted); 0 = no per-address cap. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_HTTP_SERVER_LIMITS: Readonly<HttpServerLimits> = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 20_000,
  // Longer than the idle time of the proxies in front (nginx keeps upstream connections 60 s, most
  // load balancers 60 s): a service that closes an idle connection first races the proxy's next
  // request on it (a reset, a 502). Fastify's own default; an idle socket counts against the caps.
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 128,
};

/** The variable that sets each limit, so a broken rule names what the operator has to change. */
export type HttpServerLimitVariables = Record<keyof HttpServerLimits, string>;

/**
 * The limits with defaults for what is not set, and the rules that relate them: the header time
 * fits in the request time, the per-address cap in the total one.
 */
export function resolveHttpServerLimits(
  values: Partial<HttpServerLimits>,
  variables: HttpServerLimitVariables,
): { limits: HttpServerLimits; issues: ConfigIssue[] } {
  const defined = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<HttpServerLimits>;
  const limits: HttpServerLimits = { ...DEFAULT_HTTP_SERVER_LIMITS, ...defined };
  // An explicit request time below the default header time lowers the header time with it.
  if (values.headersTimeoutMs === undefined) limits.headersTimeoutMs = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  if (values.maxConnectionsPerAddress === undefined) limits.maxConnectionsPerAddress = Math.min(limits.maxConnectionsPerAddress, limits.maxConnections);
  const issues: ConfigIssue[] = [];
  for (const key of ['requestTimeoutMs', 'headersTimeoutMs', 'keepAliveTimeoutMs'] as const) {
    if (!(limits[key] >= 100)) issues.push({ variable: variables[key], rule: 'must be at least 100 ms (0 would turn the bound off)' });
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    issues.push({ variable: variables.headersTimeoutMs, rule: `must not be longer than ${variables.requestTimeoutMs}` });
  }
  if (!(limits.maxConnections >= 1)) issues.push({ variable: variables.maxConnections, rule: 'must be at least 1' });
  if (!(limits.maxConnectionsPerAddress >= 0)) issues.push({ variable: variables.maxConnectionsPerAddress, rule: 'must be 0 (no cap) or more' });
  if (limits.maxConnectionsPerAddress > limits.maxConnections) {
    issues.push({ variable: variables.maxConnectionsPerAddress, rule: `must not be more than ${variables.maxConnections}` });
  }
  return { limits, issues };
}
