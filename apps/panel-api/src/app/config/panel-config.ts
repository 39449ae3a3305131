import { ConfigValidationError, HttpServerLimits, RawVariables, TrustProxySetting, parseTrustProxy, resolveHttpServerLimits, validateVariables } from '@shared/config';
import { isAbsolute, join, resolve } from 'node:path';
import { PanelEnvironment } from './panel-environment';

export type DatabaseTarget =
  | { driver: 'sqlite'; path: string }
  | { driver: 'postgres'; url: string };

export interface MonitorShard {
  index: number;
  count: number;
}

/** The typed configuration panel-api runs with; built once at boot from the environment. */
export interface PanelConfig {
  /** `shutdownDrainSeconds`: after SIGTERM, how long new requests get 503 before the app closes (APP_SHUTDOWN_DRAIN_SECONDS). */
  http: { host: string; port: number; trustProxy: TrustProxySetting; shutdownDrainSeconds: number; limits: HttpServerLimits };
  dataDir: string;
  database: DatabaseTarget;
  auth: {
    bootstrapPassword?: string;
    /** ADMIN_PASSWORD_RESET=1: set the existing admin's password to bootstrapPassword once. */
    passwordReset: boolean;
    jwtSecret?: string;
    /**
     * APP_ENCRYPTION_KEY (64 hex characters): seals the Telegram sessions in the database. Required
     * with PostgreSQL (every replica needs the same key); on SQLite, generated into the data
     * directory when not set.
     */
    encryptionKey?: string;
    accessTokenTtlHours: number;
    loginThrottle: { maxFailures: number; windowSeconds: number; blockSeconds: number };
  };
  scheduler: { lockEnabled: boolean };
  /**
   * Replicas on one PostgreSQL database (issue 31): `enabled` with PostgreSQL. Each account has one
   * owner through a lease of `leaseSeconds` (APP_CLUSTER_LEASE_SECONDS, default 20) renewed every
   * third of it.
   */
  cluster: { enabled: boolean; leaseSeconds: number; address?: string; replicaId?: string };
  /** Live event streams: how many one access token may hold open at once. */
  events: { maxStreamsPerToken: number };
  listeners: { accountAllowlist?: string[]; shard?: MonitorShard };
  version: { appVersion?: string; gitSha?: string; gitBranch?: string; buildTime?: string; updateCheck: boolean; updateCheckUrl: string };
  /**
   * `gateway: 'simulator'` (APP_TELEGRAM_GATEWAY, tests only) reaches the tests' Telegram simulator
   * process at `simulatorUrl` (loopback) instead of Telegram through GramJS.
   */
  telegram: { sessionMode: 'string' | 'file'; botApiBaseUrl: string; gateway: 'gramjs' | 'simulator'; simulatorUrl?: string };
  /** Base URL of ServerChan for keyword pushes; undefined = the sender's default per key type. */
  push: { serverChanBaseUrl?: string };
  runs: { activeLogCleanupDelaySeconds: number; runStatusCleanupDelaySeconds: number; historyRetentionDays: number };
  log: { level: string; format: 'json' | 'text' };
  /** GET /metrics: open when no token is set. */
  metrics: { token?: string; accountLabels: 'hash' | 'name' };
  /** APP_OUTBOUND_ALLOW_PRIVATE: whether WebDAV, AI and push URLs may point at loopback, private or link-local addresses. */
  outbound: { allowPrivate: boolean };
}

export const PANEL_CONFIG = Symbol('PANEL_CONFIG');

/** `postgresql+asyncpg://…` (SQLAlchemy style) becomes `postgresql://…`; `sqlite:///x` becomes a path. */
function databaseFromUrl(url: string, dataDir: string): DatabaseTarget {
  const scheme = url.slice(0, url.indexOf('://'));
  const base = scheme.split('+')[0];
  if (base === 'sqlite') {
    const path = url.slice(url.indexOf('://') + 3).replace(/^\//, '');
    return { driver: 'sqlite', path: path ? resolve(path) : join(dataDir, 'db.sqlite') };
  }
  return { driver: 'postgres', url: `postgresql${url.slice(scheme.length)}` };
}

function parseShard(text: string | undefined): MonitorShard | undefined {
  if (!text) return undefined;
  const [index, count] = text.split('/').map(Number);
  return { index, count };
}

/** Validates the environment and returns the typed configuration; throws ConfigValidationError. */
export function loadPanelConfig(raw: RawVariables, options: { defaultDataDir?: string } = {}): PanelConfig {
  const env = validateVariables(PanelEnvironment, raw);
  const shard = parseShard(env.APP_MONITOR_SHARD);
  if (shard && (shard.count < 1 || shard.index >= shard.count)) {
    throw new ConfigValidationError([{ variable: 'APP_MONITOR_SHARD', rule: 'needs n >= 1 and 0 <= i < n' }]);
  }
  if (env.ADMIN_PASSWORD_RESET === '1' && !env.ADMIN_PASSWORD) {
    throw new ConfigValidationError([{ variable: 'ADMIN_PASSWORD_RESET', rule: 'needs ADMIN_PASSWORD, the new admin password' }]);
  }
  const seconds = (value: number | undefined) => (value === undefined ? undefined : value * 1000);
  const httpLimits = resolveHttpServerLimits(
    {
      requestTimeoutMs: seconds(env.APP_HTTP_REQUEST_TIMEOUT_SECONDS),
      headersTimeoutMs: seconds(env.APP_HTTP_HEADERS_TIMEOUT_SECONDS),
      keepAliveTimeoutMs: seconds(env.APP_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS),
      maxConnections: env.APP_HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: env.APP_HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    },
    {
      requestTimeoutMs: 'APP_HTTP_REQUEST_TIMEOUT_SECONDS',
      headersTimeoutMs: 'APP_HTTP_HEADERS_TIMEOUT_SECONDS',
      keepAliveTimeoutMs: 'APP_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS',
      maxConnections: 'APP_HTTP_MAX_CONNECTIONS',
      maxConnectionsPerAddress: 'APP_HTTP_MAX_CONNECTIONS_PER_ADDRESS',
    },
  );
  if (httpLimits.issues.length > 0) throw new ConfigValidationError(httpLimits.issues);
  const dataDirSetting = env.APP_DATA_DIR ?? options.defaultDataDir ?? './data';
  const dataDir = isAbsolute(dataDirSetting) ? dataDirSetting : resolve(dataDirSetting);
  const databaseUrl = env.APP_DATABASE_URL ?? env.DATABASE_URL;
  const database: DatabaseTarget = databaseUrl ? databaseFromUrl(databaseUrl, dataDir) : { driver: 'sqlite', path: join(dataDir, 'db.sqlite') };
  if (database.driver === 'postgres' && !env.APP_ENCRYPTION_KEY) {
    throw new ConfigValidationError([
      {
        variable: 'APP_ENCRYPTION_KEY',
        rule: 'is required with PostgreSQL: it seals the Telegram sessions in the database, and every replica must use the same one. Create one with `openssl rand -hex 32`',
      },
    ]);
  }
  if (database.driver === 'postgres' && !env.APP_JWT_SECRET) {
    // A generated key lives in one data directory: replicas with their own would refuse each other's tokens and forwarded requests.
    throw new ConfigValidationError([
      {
        variable: 'APP_JWT_SECRET',
        rule: 'is required with PostgreSQL: it signs the access tokens and the requests replicas forward to each other, and every replica must use the same one. Create one with `openssl rand -hex 32`',
      },
    ]);
  }
  if (env.APP_TELEGRAM_GATEWAY === 'simulator' && !env.APP_TELEGRAM_SIMULATOR_URL) {
    throw new ConfigValidationError([{ variable: 'APP_TELEGRAM_SIMULATOR_URL', rule: 'is required with APP_TELEGRAM_GATEWAY=simulator (tcp://127.0.0.1:<port> of the test simulator)' }]);
  }
  const version = env.APP_VERSION?.trim();
  return {
    http: {
      host: env.HOST ?? '0.0.0.0',
      port: env.PORT ?? 8000,
      trustProxy: env.APP_TRUST_PROXY === undefined ? false : (parseTrustProxy(env.APP_TRUST_PROXY) ?? false),
      shutdownDrainSeconds: env.APP_SHUTDOWN_DRAIN_SECONDS ?? 3,
      limits: httpLimits.limits,
    },
    dataDir,
    database,
    auth: {
      bootstrapPassword: env.ADMIN_PASSWORD,
      passwordReset: env.ADMIN_PASSWORD_RESET === '1',
      jwtSecret: env.APP_JWT_SECRET,
      encryptionKey: env.APP_ENCRYPTION_KEY?.toLowerCase(),
      accessTokenTtlHours: env.APP_ACCESS_TOKEN_EXPIRE_HOURS ?? 12,
      loginThrottle: {
        maxFailures: env.APP_LOGIN_MAX_FAILURES ?? 5,
        windowSeconds: env.APP_LOGIN_FAILURE_WINDOW_SECONDS ?? 300,
        blockSeconds: env.APP_LOGIN_BLOCK_SECONDS ?? 900,
      },
    },
    scheduler: { lockEnabled: (env.APP_SCHEDULER_LOCK ?? '1') === '1' },
    cluster: {
      enabled: database.driver === 'postgres',
      leaseSeconds: env.APP_CLUSTER_LEASE_SECONDS ?? 20,
      address: env.APP_CLUSTER_ADDRESS?.replace(/\/+$/, ''),
      replicaId: env.APP_CLUSTER_REPLICA_ID,
    },
    events: { maxStreamsPerToken: env.APP_EVENTS_MAX_STREAMS_PER_TOKEN ?? 10 },
    listeners: {
      accountAllowlist: env.APP_MONITOR_ACCOUNT_ALLOWLIST?.split(',').map((name) => name.trim()).filter(Boolean),
      shard,
    },
    version: {
      appVersion: version && version !== '0.0.0' ? version : undefined,
      gitSha: env.GIT_SHA || undefined,
      gitBranch: env.GIT_BRANCH || undefined,
      buildTime: env.BUILD_TIME || undefined,
      updateCheck: !['0', 'false'].includes(env.APP_UPDATE_CHECK ?? '1'),
      updateCheckUrl: env.APP_UPDATE_CHECK_URL ?? 'https://api.github.com/repos/signpulse/panel/releases/latest',
    },
    telegram: {
      sessionMode: (env.MSGR_SESSION_MODE as 'string' | 'file' | undefined) ?? 'file',
      botApiBaseUrl: (env.APP_BOT_API_BASE_URL ?? 'https://api.telegram.org').replace(/\/+$/, ''),
      gateway: (env.APP_TELEGRAM_GATEWAY as 'gramjs' | 'simulator' | undefined) ?? 'gramjs',
      simulatorUrl: env.APP_TELEGRAM_SIMULATOR_URL,
    },
    push: { serverChanBaseUrl: env.APP_SERVER_CHAN_BASE_URL?.replace(/\/+$/, '') },
    runs: {
      activeLogCleanupDelaySeconds: env.ACTIVE_LOG_CLEANUP_DELAY_SECONDS ?? 60,
      runStatusCleanupDelaySeconds: env.RUN_STATUS_CLEANUP_DELAY_SECONDS ?? 600,
      historyRetentionDays: env.APP_HISTORY_RETENTION_DAYS ?? 90,
    },
    log: { level: env.LOG_LEVEL ?? 'info', format: (env.LOG_FORMAT as 'json' | 'text' | undefined) ?? 'json' },
    outbound: { allowPrivate: env.APP_OUTBOUND_ALLOW_PRIVATE === '1' },
    metrics: { token: env.APP_METRICS_TOKEN, accountLabels: (env.APP_METRICS_ACCOUNT_LABELS as 'hash' | 'name' | undefined) ?? 'hash' },
  };
}

/** Values that must never appear in a log line or an error message. */
export function panelSecrets(config: PanelConfig): string[] {
  const secrets = [config.auth.bootstrapPassword, config.auth.jwtSecret, config.auth.encryptionKey, config.metrics.token];
  if (config.database.driver === 'postgres') secrets.push(config.database.url);
  return secrets.filter((value): value is string => Boolean(value));
}
