import { ConfigIssue, ConfigValidationError, HttpServerLimits, RawVariables, resolveHttpServerLimits, parseDuration, parseHostPort, parseTrustProxy, TrustProxySetting, knownVariableNames, readYamlEntries, validateVariables } from '@shared/config';
import { parseMasterKey } from '@shared/crypto';
import { isAbsolute, resolve } from 'node:path';
import { MonitorEnvironment, SECRET_VARIABLES } from './monitor-environment';

export type MonitorDatabase =
  | { driver: 'sqlite'; path: string }
  | { driver: 'postgres'; url: string; maxOpenConns: number; maxIdleConns: number };

export interface AiFeatureSwitches {
  digest: boolean;
  triage: boolean;
  releaseSummary: boolean;
  codeReview: boolean;
  failureAnalysis: boolean;
}

/** The typed configuration repo-monitor runs with, merged from defaults, YAML and environment. */
export interface MonitorConfig {
  /** `shutdownDrainMs`: after SIGTERM, how long new requests get 503 before the app closes (MONITOR_HTTP_SHUTDOWN_DRAIN). */
  http: { host: string; port: number; addr: string; publicBaseUrl?: string; trustProxy: TrustProxySetting; shutdownDrainMs: number; limits: HttpServerLimits };
  database: MonitorDatabase;
  admin: { username?: string; password?: string; sessionTtlMs: number; setupAllowRemote: boolean };
  encryption: { key?: Buffer; previousKey?: Buffer };
  github: {
    appId?: string;
    clientId?: string;
    privateKeyPath?: string;
    webhookSecret?: string;
    webhookPreviousSecret?: string;
    apiUrl: string;
    /** GitHub's web address (where the App manifest is posted): MONITOR_VCS_WEB_URL, else derived from the API URL. */
    webUrl: string;
    externalPat?: string;
    starredUsername?: string;
    reconcileIntervalMs: number;
    /** After a console rotation the previous webhook secret stays accepted this long (MONITOR_VCS_WEBHOOK_SECRET_GRACE). */
    webhookSecretGraceMs: number;
  };
  /**
   * The sweep that asks GitHub to redeliver what never reached the inbox: on/off, how often, and how
   * many redeliveries it asks for per sweep (MONITOR_REDELIVERY_*).
   */
  redelivery: { enabled: boolean; intervalMs: number; maxAttemptsPerSweep: number };
  /** How long a replica may keep console settings in memory when no change notification arrives (MONITOR_SETTINGS_REFRESH). */
  settings: { refreshMs: number };
  /**
   * How often each instance looks for accepted deliveries that no instance is processing: those
   * stored by a replica that died and was not started again (MONITOR_INBOX_RESCAN_INTERVAL). A
   * delivery counts as left behind once it has waited two intervals.
   */
  inbox: { rescanIntervalMs: number };
  notifications: {
    botToken?: string;
    botChatId?: string;
    botApiBaseUrl: string;
    webhookUrl?: string;
    webhookSecret?: string;
    webhookAllowPrivate: boolean;
    /** MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE: plain http receivers anywhere (else only private ones, with allow-private). */
    webhookAllowInsecure: boolean;
    aggregation: { windowMs: number; burstThreshold: number; burstWindowMs: number };
  };
  log: { level: 'debug' | 'info' | 'warn' | 'error'; format: 'json' | 'text' };
  metrics: { enabled: boolean; token?: string };
  updateCheck: { enabled: boolean; url: string; token?: string };
  ai: {
    enabled: boolean;
    apiKey?: string;
    baseUrl: string;
    model: string;
    timeoutMs: number;
    maxTokens: number;
    retries: number;
    features: AiFeatureSwitches;
  };
  oauth: { clientId: string; clientSecret?: string };
  proxy: { httpsProxy?: string; noProxy?: string };
  build: { version?: string; gitSha?: string; gitBranch?: string; buildTime?: string };
  /** Variable names set in the environment; the console locks the fields they govern. */
  environmentVariables: ReadonlySet<string>;
}

export const MONITOR_CONFIG = Symbol('MONITOR_CONFIG');

export const DEFAULTS = {
  httpAddr: '127.0.0.1:8080',
  sqliteUrl: 'file:./data/repo-monitor.db',
  sessionTtl: '12h',
  githubApiUrl: 'https://api.github.com',
  botApiBaseUrl: 'https://api.telegram.org',
  aiBaseUrl: 'https://api.openai.com/v1',
  aiModel: 'gpt-4o-mini',
  aiTimeout: '30s',
  aiMaxTokens: 800,
  aiRetries: 1,
  aggregationWindow: '60s',
  aggregationBurstThreshold: 15,
  aggregationBurstWindow: '300s',
  reconcileInterval: '6h',
  webhookSecretGrace: '10m',
  redeliveryInterval: '5m',
  inboxRescanInterval: '30s',
  redeliveryMaxAttempts: 50,
  settingsRefresh: '10s',
  updateCheckUrl: 'https://api.github.com/repos/repo-monitor/repo-monitor/releases/latest',
  oauthClientId: 'repo-monitor-agent',
} as const;

export interface LoadOptions {
  env: RawVariables;
  configFile?: string;
}

/** Folds the standard aliases and lower-case proxy names into the prefixed variables. */
function normalizeEnvironment(env: RawVariables): RawVariables {
  const out: RawVariables = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('MONITOR_') || ['HTTPS_PROXY', 'NO_PROXY', 'APP_VERSION', 'GIT_SHA', 'GIT_BRANCH', 'BUILD_TIME'].includes(key)) {
      out[key] = value;
    }
  }
  if (env['LOG_FORMAT']) out['MONITOR_LOG_FORMAT'] = env['LOG_FORMAT'];
  if (env['LOG_LEVEL']) out['MONITOR_LOG_LEVEL'] = env['LOG_LEVEL'];
  out['HTTPS_PROXY'] ??= env['https_proxy'];
  out['NO_PROXY'] ??= env['no_proxy'];
  return out;
}

function urlHasPassword(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(url);
}

function sqlitePath(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '').split('?')[0];
  if (!path) return undefined;
  return isAbsolute(path) ? path : resolve(path);
}

function validPostgresUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (!['postgres:', 'postgresql:'].includes(parsed.protocol) || !parsed.hostname) return false;
    // Characters that must be percent-encoded make URL parsing misplace the host or the database.
    decodeURIComponent(parsed.password);
    decodeURIComponent(parsed.username);
    return !/[\s#?()]/.test(decodeURIComponent(parsed.pathname.slice(1))) && parsed.pathname.length > 1;
  } catch {
    return false;
  }
}

/**
 * Merges defaults, the YAML file and the environment (highest), validates every rule and returns
 * the typed configuration. Throws ConfigValidationError (validation_failed) naming variables and
 * rules only; a database URL that cannot be parsed is reported as database_unavailable by `serve`.
 */
export function loadMonitorConfig(options: LoadOptions): MonitorConfig {
  const issues: ConfigIssue[] = [];
  const fileEntries = options.configFile ? readYamlEntries(options.configFile, 'MONITOR_') : [];
  const knownVariables = knownVariableNames(MonitorEnvironment);
  const fileVariables: RawVariables = {};
  for (const entry of fileEntries) {
    if (!knownVariables.has(entry.variable)) {
      issues.push({ variable: entry.key, rule: 'is not a known configuration key (see the MONITOR_* variables; nested keys mirror them)' });
    } else {
      fileVariables[entry.variable] = entry.value;
    }
  }
  for (const secret of SECRET_VARIABLES) {
    if (fileVariables[secret] !== undefined) {
      issues.push({ variable: secret, rule: 'is a secret and may only be set in the environment, not in the config file' });
    }
  }
  if (fileVariables['MONITOR_DATABASE_URL'] && urlHasPassword(fileVariables['MONITOR_DATABASE_URL'])) {
    issues.push({ variable: 'MONITOR_DATABASE_URL', rule: 'carries a password; set it in the environment, not in the config file' });
  }
  const environment = normalizeEnvironment(options.env);
  const merged: RawVariables = { ...fileVariables };
  for (const [key, value] of Object.entries(environment)) if (value !== undefined) merged[key] = value;

  let env: MonitorEnvironment;
  try {
    env = validateVariables(MonitorEnvironment, merged);
  } catch (error) {
    if (error instanceof ConfigValidationError) throw new ConfigValidationError([...issues, ...error.issues]);
    throw error;
  }

  const addr = env.MONITOR_HTTP_ADDR ?? DEFAULTS.httpAddr;
  const hostPort = parseHostPort(addr) as { host: string; port: number };

  const driver = (env.MONITOR_DATABASE_DRIVER ?? 'sqlite') as 'sqlite' | 'postgres';
  let database: MonitorDatabase | undefined;
  const rawUrl = env.MONITOR_DATABASE_URL?.trim();
  if (driver === 'postgres') {
    if (!rawUrl) {
      issues.push({ variable: 'MONITOR_DATABASE_URL', rule: 'must be a non-empty PostgreSQL URL when MONITOR_DATABASE_DRIVER=postgres' });
    } else {
      database = {
        driver,
        url: rawUrl,
        maxOpenConns: env.MONITOR_DATABASE_MAX_OPEN_CONNS ?? 10,
        maxIdleConns: env.MONITOR_DATABASE_MAX_IDLE_CONNS ?? 5,
      };
    }
  } else {
    const path = sqlitePath(rawUrl || DEFAULTS.sqliteUrl);
    if (!path) issues.push({ variable: 'MONITOR_DATABASE_URL', rule: 'must be file:<path> when MONITOR_DATABASE_DRIVER=sqlite' });
    else database = { driver, path };
  }

  if (Boolean(env.MONITOR_ADMIN_USERNAME) !== Boolean(env.MONITOR_ADMIN_PASSWORD)) {
    issues.push({ variable: 'MONITOR_ADMIN_USERNAME', rule: 'must be set together with MONITOR_ADMIN_PASSWORD' });
  }

  const encryption: MonitorConfig['encryption'] = {};
  for (const [variable, field] of [
    ['MONITOR_ENCRYPTION_KEY', 'key'],
    ['MONITOR_ENCRYPTION_KEY_PREVIOUS', 'previousKey'],
  ] as const) {
    const value = env[variable];
    if (!value) continue;
    try {
      encryption[field] = parseMasterKey(value);
    } catch (error) {
      issues.push({ variable, rule: (error as Error).message });
    }
  }
  if (encryption.previousKey && !env.MONITOR_ENCRYPTION_KEY) {
    issues.push({ variable: 'MONITOR_ENCRYPTION_KEY_PREVIOUS', rule: 'needs MONITOR_ENCRYPTION_KEY as the new current key' });
  }

  const aiEnabled = env.MONITOR_AI_ENABLED ?? false;
  if (aiEnabled && !env.MONITOR_AI_API_KEY) {
    issues.push({ variable: 'MONITOR_AI_API_KEY', rule: 'is required when MONITOR_AI_ENABLED=true (any placeholder for a local gateway)' });
  }
  if (env.MONITOR_HTTP_WEBHOOK_SECRET && env.MONITOR_HTTP_WEBHOOK_SECRET === env.MONITOR_VCS_WEBHOOK_SECRET) {
    issues.push({ variable: 'MONITOR_HTTP_WEBHOOK_SECRET', rule: 'must differ from the inbound MONITOR_VCS_WEBHOOK_SECRET' });
  }
  if (
    env.MONITOR_HTTP_WEBHOOK_URL?.toLowerCase().startsWith('http:') &&
    !env.MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE &&
    !env.MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE
  ) {
    issues.push({
      variable: 'MONITOR_HTTP_WEBHOOK_URL',
      rule: 'must be https; plain http needs MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE=true (a local receiver) or MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE=true',
    });
  }
  if (env.MONITOR_OAUTH_CLIENT_SECRET && !env.MONITOR_ENCRYPTION_KEY) {
    issues.push({ variable: 'MONITOR_OAUTH_CLIENT_SECRET', rule: 'needs MONITOR_ENCRYPTION_KEY (agent tokens are signed with a key derived from it)' });
  }

  if ((parseDuration(env.MONITOR_INBOX_RESCAN_INTERVAL ?? '30s') ?? 0) < 1_000) {
    issues.push({ variable: 'MONITOR_INBOX_RESCAN_INTERVAL', rule: 'must be at least 1s' });
  }
  if ((parseDuration(env.MONITOR_REDELIVERY_INTERVAL ?? '1m') ?? 0) < 1_000) {
    issues.push({ variable: 'MONITOR_REDELIVERY_INTERVAL', rule: 'must be at least 1s (turn the sweep off with MONITOR_REDELIVERY_ENABLED=false)' });
  }
  if ((parseDuration(env.MONITOR_SETTINGS_REFRESH ?? '1s') ?? 0) > 600_000) {
    issues.push({ variable: 'MONITOR_SETTINGS_REFRESH', rule: 'must be at most 10m' });
  }
  if ((parseDuration(env.MONITOR_HTTP_SHUTDOWN_DRAIN ?? '0s') ?? 0) > 300_000) {
    issues.push({ variable: 'MONITOR_HTTP_SHUTDOWN_DRAIN', rule: 'must be at most 5m' });
  }

  const optionalDuration = (value: string | undefined) => (value === undefined ? undefined : parseDuration(value));
  const httpLimits = resolveHttpServerLimits(
    {
      requestTimeoutMs: optionalDuration(env.MONITOR_HTTP_REQUEST_TIMEOUT),
      headersTimeoutMs: optionalDuration(env.MONITOR_HTTP_HEADERS_TIMEOUT),
      keepAliveTimeoutMs: optionalDuration(env.MONITOR_HTTP_KEEP_ALIVE_TIMEOUT),
      maxConnections: env.MONITOR_HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: env.MONITOR_HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    },
    {
      requestTimeoutMs: 'MONITOR_HTTP_REQUEST_TIMEOUT',
      headersTimeoutMs: 'MONITOR_HTTP_HEADERS_TIMEOUT',
      keepAliveTimeoutMs: 'MONITOR_HTTP_KEEP_ALIVE_TIMEOUT',
      maxConnections: 'MONITOR_HTTP_MAX_CONNECTIONS',
      maxConnectionsPerAddress: 'MONITOR_HTTP_MAX_CONNECTIONS_PER_ADDRESS',
    },
  );
  issues.push(...httpLimits.issues);

  if (issues.length > 0 || !database) throw new ConfigValidationError(issues);

  const duration = (value: string | undefined, fallback: string) => parseDuration(value ?? fallback) as number;
  const version = env.APP_VERSION?.trim();
  return {
    http: {
      host: hostPort.host,
      port: hostPort.port,
      addr,
      publicBaseUrl: env.MONITOR_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      trustProxy: env.MONITOR_HTTP_TRUST_PROXY === undefined ? false : (parseTrustProxy(env.MONITOR_HTTP_TRUST_PROXY) ?? false),
      shutdownDrainMs: duration(env.MONITOR_HTTP_SHUTDOWN_DRAIN, '3s'),
      limits: httpLimits.limits,
    },
    database,
    admin: {
      username: env.MONITOR_ADMIN_USERNAME,
      password: env.MONITOR_ADMIN_PASSWORD,
      sessionTtlMs: duration(env.MONITOR_ADMIN_SESSION_TTL, DEFAULTS.sessionTtl),
      setupAllowRemote: env.MONITOR_SETUP_ALLOW_REMOTE ?? false,
    },
    encryption,
    github: {
      appId: env.MONITOR_VCS_APP_ID,
      clientId: env.MONITOR_VCS_CLIENT_ID,
      privateKeyPath: env.MONITOR_VCS_PRIVATE_KEY_PATH,
      webhookSecret: env.MONITOR_VCS_WEBHOOK_SECRET,
      webhookPreviousSecret: env.MONITOR_VCS_WEBHOOK_PREVIOUS_SECRET,
      apiUrl: (env.MONITOR_VCS_API_URL ?? DEFAULTS.githubApiUrl).replace(/\/+$/, ''),
      webUrl: (env.MONITOR_VCS_WEB_URL ?? githubWebUrlFor(env.MONITOR_VCS_API_URL ?? DEFAULTS.githubApiUrl)).replace(/\/+$/, ''),
      externalPat: env.MONITOR_EXTERNAL_PAT,
      starredUsername: env.MONITOR_STARRED_USERNAME,
      reconcileIntervalMs: duration(env.MONITOR_RECONCILE_INTERVAL, DEFAULTS.reconcileInterval),
      webhookSecretGraceMs: duration(env.MONITOR_VCS_WEBHOOK_SECRET_GRACE, DEFAULTS.webhookSecretGrace),
    },
    inbox: { rescanIntervalMs: duration(env.MONITOR_INBOX_RESCAN_INTERVAL, DEFAULTS.inboxRescanInterval) },
    redelivery: {
      enabled: env.MONITOR_REDELIVERY_ENABLED ?? true,
      intervalMs: duration(env.MONITOR_REDELIVERY_INTERVAL, DEFAULTS.redeliveryInterval),
      maxAttemptsPerSweep: env.MONITOR_REDELIVERY_MAX_ATTEMPTS ?? DEFAULTS.redeliveryMaxAttempts,
    },
    settings: { refreshMs: duration(env.MONITOR_SETTINGS_REFRESH, DEFAULTS.settingsRefresh) },
    notifications: {
      botToken: env.MONITOR_BOT_TOKEN,
      botChatId: env.MONITOR_BOT_CHAT_ID,
      botApiBaseUrl: (env.MONITOR_BOT_API_BASE_URL ?? DEFAULTS.botApiBaseUrl).replace(/\/+$/, ''),
      webhookUrl: env.MONITOR_HTTP_WEBHOOK_URL,
      webhookSecret: env.MONITOR_HTTP_WEBHOOK_SECRET,
      webhookAllowPrivate: env.MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE ?? false,
      webhookAllowInsecure: env.MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE ?? false,
      aggregation: {
        windowMs: duration(env.MONITOR_AGGREGATION_WINDOW, DEFAULTS.aggregationWindow),
        burstThreshold: env.MONITOR_AGGREGATION_BURST_THRESHOLD ?? DEFAULTS.aggregationBurstThreshold,
        burstWindowMs: duration(env.MONITOR_AGGREGATION_BURST_WINDOW, DEFAULTS.aggregationBurstWindow),
      },
    },
    log: {
      level: (env.MONITOR_LOG_LEVEL ?? 'info') as MonitorConfig['log']['level'],
      format: (env.MONITOR_LOG_FORMAT ?? 'json') as MonitorConfig['log']['format'],
    },
    metrics: { enabled: env.MONITOR_METRICS_ENABLED ?? true, token: env.MONITOR_METRICS_TOKEN },
    updateCheck: {
      enabled: env.MONITOR_UPDATE_CHECK ?? true,
      url: env.MONITOR_UPDATE_CHECK_URL ?? DEFAULTS.updateCheckUrl,
      token: env.MONITOR_UPDATE_CHECK_TOKEN,
    },
    ai: {
      enabled: aiEnabled,
      apiKey: env.MONITOR_AI_API_KEY,
      baseUrl: (env.MONITOR_AI_BASE_URL ?? DEFAULTS.aiBaseUrl).replace(/\/+$/, ''),
      model: env.MONITOR_AI_MODEL ?? DEFAULTS.aiModel,
      timeoutMs: duration(env.MONITOR_AI_TIMEOUT, DEFAULTS.aiTimeout),
      maxTokens: env.MONITOR_AI_MAX_TOKENS ?? DEFAULTS.aiMaxTokens,
      retries: env.MONITOR_AI_RETRIES ?? DEFAULTS.aiRetries,
      features: {
        digest: env.MONITOR_AI_DIGEST_ENABLED ?? true,
        triage: env.MONITOR_AI_TRIAGE_ENABLED ?? true,
        releaseSummary: env.MONITOR_AI_RELEASE_SUMMARY_ENABLED ?? true,
        codeReview: env.MONITOR_AI_CODE_REVIEW_ENABLED ?? true,
        failureAnalysis: env.MONITOR_AI_FAILURE_ANALYSIS_ENABLED ?? true,
      },
    },
    oauth: { clientId: env.MONITOR_OAUTH_CLIENT_ID ?? DEFAULTS.oauthClientId, clientSecret: env.MONITOR_OAUTH_CLIENT_SECRET },
    proxy: { httpsProxy: env.HTTPS_PROXY, noProxy: env.NO_PROXY },
    build: {
      version: version && version !== '0.0.0' ? version : undefined,
      gitSha: env.GIT_SHA || undefined,
      gitBranch: env.GIT_BRANCH || undefined,
      buildTime: env.BUILD_TIME || undefined,
    },
    environmentVariables: new Set(Object.keys(environment).filter((key) => environment[key] !== undefined && environment[key] !== '')),
  };
}

/** Whether the PostgreSQL URL parses; `serve` reports a failure as database_unavailable. */
export function postgresUrlParses(url: string): boolean {
  return validPostgresUrl(url);
}

/** Every secret value of the configuration, for scrubbing messages. */
export function monitorSecrets(config: MonitorConfig): string[] {
  const values = [
    config.admin.password,
    config.github.webhookSecret,
    config.github.webhookPreviousSecret,
    config.github.externalPat,
    config.notifications.botToken,
    config.notifications.webhookSecret,
    config.metrics.token,
    config.updateCheck.token,
    config.ai.apiKey,
    config.oauth.clientSecret,
    config.encryption.key?.toString('hex'),
    config.encryption.key?.toString('base64'),
    config.encryption.previousKey?.toString('hex'),
    config.encryption.previousKey?.toString('base64'),
    config.database.driver === 'postgres' ? config.database.url : undefined,
  ];
  return values.filter((value): value is string => Boolean(value));
}

/** The one-line summary `config validate` prints on success. */
export function configSummary(config: MonitorConfig): string {
  return [
    'config_valid',
    `driver=${config.database.driver}`,
    `http_addr=${config.http.addr}`,
    `setup_remote=${config.admin.setupAllowRemote}`,
    `admin_bootstrap=${Boolean(config.admin.username)}`,
    `encryption_key_configured=${Boolean(config.encryption.key)}`,
    `ai_enabled=${config.ai.enabled}`,
    `metrics_enabled=${config.metrics.enabled}`,
  ].join(' ');
}

/**
 * GitHub's web address for an API address: github.com for api.github.com, the host itself for
 * GitHub Enterprise Server (`https://HOST/api/v3`), else the API address's origin.
 */
export function githubWebUrlFor(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === 'api.github.com') return 'https://github.com';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/api/v3') ? path.slice(0, -'/api/v3'.length) : ''}`;
}
