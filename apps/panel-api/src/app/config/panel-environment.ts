import { EmptyAsUndefined, IsHttpUrl, IsTrustProxy, ToInteger } from '@shared/config';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

/**
 * Every environment variable panel-api reads, with its rule. Property names are the variable names,
 * so a validation message names exactly what the operator has to fix.
 */
export class PanelEnvironment {
  @IsOptional() @EmptyAsUndefined() @IsString() HOST?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(300) APP_SHUTDOWN_DRAIN_SECONDS?: number;
  // Slow and many clients (docs/reverse-proxy.md): request and header times, keep-alive idle time, connection caps.
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(3600) APP_HTTP_REQUEST_TIMEOUT_SECONDS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(3600) APP_HTTP_HEADERS_TIMEOUT_SECONDS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(3600) APP_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(1_000_000) APP_HTTP_MAX_CONNECTIONS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(1_000_000) APP_HTTP_MAX_CONNECTIONS_PER_ADDRESS?: number;
  @IsOptional() @EmptyAsUndefined() @IsString() APP_DATA_DIR?: string;

  @IsOptional()
  @EmptyAsUndefined()
  @Matches(/^(postgres(ql)?(\+[a-z0-9]+)?|sqlite(\+[a-z0-9]+)?):\/\//, {
    message: 'must be a postgres:// (or postgresql://) or sqlite:/// URL',
  })
  APP_DATABASE_URL?: string;

  @IsOptional()
  @EmptyAsUndefined()
  @Matches(/^(postgres(ql)?(\+[a-z0-9]+)?|sqlite(\+[a-z0-9]+)?):\/\//, {
    message: 'must be a postgres:// (or postgresql://) or sqlite:/// URL',
  })
  DATABASE_URL?: string;

  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(8) @MaxLength(256) ADMIN_PASSWORD?: string;
  // Recovery for a lost admin password: with ADMIN_PASSWORD, sets it once at the next start (see AdminBootstrapService).
  @IsOptional() @IsIn(['0', '1']) ADMIN_PASSWORD_RESET?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(32) APP_JWT_SECRET?: string;
  // Seals Telegram sessions at rest (AES-256-GCM through @shared/crypto); every replica must share it.
  @IsOptional()
  @EmptyAsUndefined()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hex characters (32 bytes); create one with `openssl rand -hex 32`' })
  APP_ENCRYPTION_KEY?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(720) APP_ACCESS_TOKEN_EXPIRE_HOURS?: number;
  // Login throttling; the defaults are the documented 5 failures in 300 s blocking for 900 s.
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(1000) APP_LOGIN_MAX_FAILURES?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(86400) APP_LOGIN_FAILURE_WINDOW_SECONDS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(86400) APP_LOGIN_BLOCK_SECONDS?: number;
  // Open live event streams (/api/events/…) one access token may hold; one more is answered 429.
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(1000) APP_EVENTS_MAX_STREAMS_PER_TOKEN?: number;

  @IsOptional() @IsIn(['0', '1']) APP_SCHEDULER_LOCK?: string;
  // Replicas on PostgreSQL (docs/scaling.md): how long an account lease lives without a heartbeat.
  @IsOptional() @ToInteger() @IsInt() @Min(2) @Max(300) APP_CLUSTER_LEASE_SECONDS?: number;
  // How the other replicas reach this one (shown in GET /api/ops/cluster); default http://<hostname>:<PORT>.
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() APP_CLUSTER_ADDRESS?: string;
  // This replica's id in the cluster (a pod name, say); default <hostname>-<random>. Must be unique among live replicas.
  @IsOptional() @EmptyAsUndefined() @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'must be 1 to 64 letters, digits or _ . : -' }) APP_CLUSTER_REPLICA_ID?: string;
  @IsOptional() @EmptyAsUndefined() @Matches(/^[A-Za-z0-9_.-]+(\s*,\s*[A-Za-z0-9_.-]+)*$/, {
    message: 'must be a comma-separated list of account names',
  })
  APP_MONITOR_ACCOUNT_ALLOWLIST?: string;
  @IsOptional() @EmptyAsUndefined() @Matches(/^\d{1,4}\/\d{1,4}$/, { message: 'must have the form i/n, for example 0/3' })
  APP_MONITOR_SHARD?: string;

  @IsOptional() @IsIn(['0', '1', 'true', 'false']) APP_UPDATE_CHECK?: string;
  // Plain http is accepted only to a loopback address (a local mirror, or the tests' local feed):
  // that traffic never leaves the host, so TLS would protect nothing.
  @IsOptional()
  @EmptyAsUndefined()
  @Matches(/^(https:\/\/[^\s/?#]+|http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?)([/?#]\S*)?$/, {
    message: 'must be an https URL (plain http only to a loopback address: 127.0.0.1, localhost or [::1])',
  })
  APP_UPDATE_CHECK_URL?: string;
  @IsOptional() @IsString() APP_VERSION?: string;
  @IsOptional() @IsString() GIT_SHA?: string;
  @IsOptional() @IsString() GIT_BRANCH?: string;
  @IsOptional() @IsString() BUILD_TIME?: string;

  @IsOptional() @IsIn(['string', 'file']) MSGR_SESSION_MODE?: string;
  // Test-only (docs/scaling.md, the multi-process proof): `simulator` talks to the Telegram simulator
  // process of the tests (apps/panel-api/test/telegram-simulator-server.ts) instead of Telegram.
  @IsOptional() @IsIn(['gramjs', 'simulator']) APP_TELEGRAM_GATEWAY?: string;
  @IsOptional()
  @EmptyAsUndefined()
  @Matches(/^tcp:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/, { message: 'must be tcp://127.0.0.1:<port> (the test simulator; loopback only)' })
  APP_TELEGRAM_SIMULATOR_URL?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(86400) ACTIVE_LOG_CLEANUP_DELAY_SECONDS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(86400) RUN_STATUS_CLEANUP_DELAY_SECONDS?: number;
  /** Days of run history (`.signer/history/` files and `sign_logs` rows) the daily system-maintenance job keeps (default 90). */
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(3650) APP_HISTORY_RETENTION_DAYS?: number;

  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() APP_BOT_API_BASE_URL?: string;
  /** ServerChan API base for keyword pushes (default https://sctapi.ftqq.com; Server酱³ keys pick their own host). */
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() APP_SERVER_CHAN_BASE_URL?: string;

  @IsOptional() @EmptyAsUndefined() @IsTrustProxy() APP_TRUST_PROXY?: string;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; without it /metrics is open. */
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(16) @MaxLength(256) @Matches(/^\S+$/, { message: 'must not contain spaces' }) APP_METRICS_TOKEN?: string;
  /** 1: WebDAV, AI and push URLs may point at loopback, private, link-local or metadata addresses (default 0: refused). */
  @IsOptional() @IsIn(['0', '1']) APP_OUTBOUND_ALLOW_PRIVATE?: string;
  /** The `account` label of /metrics: a short hash of the name (default), or the name itself. */
  @IsOptional() @IsIn(['hash', 'name']) APP_METRICS_ACCOUNT_LABELS?: string;
  @IsOptional() @IsIn(['json', 'text']) LOG_FORMAT?: string;
  @IsOptional() @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal']) LOG_LEVEL?: string;
}
