import { EmptyAsUndefined, IsDuration, IsHostPort, IsHttpUrl, IsTrustProxy, ToBoolean, ToInteger } from '@shared/config';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

/**
 * Every variable repo-monitor reads, with its rule. Property names are the variable names so
 * messages name what to fix. YAML keys map onto them (`http.addr` → MONITOR_HTTP_ADDR).
 */
export class MonitorEnvironment {
  // HTTP
  @IsOptional() @EmptyAsUndefined() @IsHostPort() MONITOR_HTTP_ADDR?: string;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() MONITOR_PUBLIC_BASE_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsTrustProxy() MONITOR_HTTP_TRUST_PROXY?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_HTTP_SHUTDOWN_DRAIN?: string;
  // Slow and many clients (docs/reverse-proxy.md): request and header times, keep-alive idle time, connection caps.
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_HTTP_REQUEST_TIMEOUT?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_HTTP_HEADERS_TIMEOUT?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_HTTP_KEEP_ALIVE_TIMEOUT?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(1_000_000) MONITOR_HTTP_MAX_CONNECTIONS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(1_000_000) MONITOR_HTTP_MAX_CONNECTIONS_PER_ADDRESS?: number;

  // Database
  @IsOptional() @EmptyAsUndefined() @IsIn(['sqlite', 'postgres'], { message: 'must be sqlite or postgres' })
  MONITOR_DATABASE_DRIVER?: string;
  @IsOptional() @IsString() MONITOR_DATABASE_URL?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(1000) MONITOR_DATABASE_MAX_OPEN_CONNS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(1000) MONITOR_DATABASE_MAX_IDLE_CONNS?: number;

  // Administrator and setup
  @IsOptional() @EmptyAsUndefined() @Matches(/^[A-Za-z0-9_.@-]{1,64}$/, { message: 'must be 1-64 letters, digits or _.@-' })
  MONITOR_ADMIN_USERNAME?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(12) @MaxLength(256) MONITOR_ADMIN_PASSWORD?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_ADMIN_SESSION_TTL?: string;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_SETUP_ALLOW_REMOTE?: boolean;

  // Master key
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_ENCRYPTION_KEY?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_ENCRYPTION_KEY_PREVIOUS?: string;

  // GitHub
  @IsOptional() @EmptyAsUndefined() @Matches(/^\d{1,12}$/, { message: 'must be a numeric app id' }) MONITOR_VCS_APP_ID?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_VCS_CLIENT_ID?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_VCS_PRIVATE_KEY_PATH?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(8) MONITOR_VCS_WEBHOOK_SECRET?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(8) MONITOR_VCS_WEBHOOK_PREVIOUS_SECRET?: string;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() MONITOR_VCS_API_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() MONITOR_VCS_WEB_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_EXTERNAL_PAT?: string;
  @IsOptional() @EmptyAsUndefined() @Matches(/^[A-Za-z0-9-]{1,39}$/, { message: 'must be a GitHub user name' })
  MONITOR_STARRED_USERNAME?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_RECONCILE_INTERVAL?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_VCS_WEBHOOK_SECRET_GRACE?: string;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_REDELIVERY_ENABLED?: boolean;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_REDELIVERY_INTERVAL?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_INBOX_RESCAN_INTERVAL?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(1000) MONITOR_REDELIVERY_MAX_ATTEMPTS?: number;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_SETTINGS_REFRESH?: string;

  // Notifications
  @IsOptional() @EmptyAsUndefined() @Matches(/^\d+:[A-Za-z0-9_-]+$/, { message: 'must look like <bot id>:<token>' })
  MONITOR_BOT_TOKEN?: string;
  @IsOptional() @EmptyAsUndefined() @Matches(/^(-?\d+|@[A-Za-z0-9_]{5,})$/, { message: 'must be a numeric chat id or @channel' })
  MONITOR_BOT_CHAT_ID?: string;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() MONITOR_BOT_API_BASE_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() MONITOR_HTTP_WEBHOOK_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(16) MONITOR_HTTP_WEBHOOK_SECRET?: string;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE?: boolean;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_AGGREGATION_WINDOW?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(10000) MONITOR_AGGREGATION_BURST_THRESHOLD?: number;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_AGGREGATION_BURST_WINDOW?: string;

  // Logging (LOG_FORMAT / LOG_LEVEL are folded in before validation)
  @IsOptional() @EmptyAsUndefined() @IsIn(['json', 'text'], { message: 'must be json or text' }) MONITOR_LOG_FORMAT?: string;
  @IsOptional() @EmptyAsUndefined() @IsIn(['debug', 'info', 'warn', 'error'], { message: 'must be debug, info, warn or error' })
  MONITOR_LOG_LEVEL?: string;

  // Metrics and update check
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_METRICS_ENABLED?: boolean;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_METRICS_TOKEN?: string;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_UPDATE_CHECK?: boolean;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl({ httpsOnly: true }) MONITOR_UPDATE_CHECK_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_UPDATE_CHECK_TOKEN?: string;

  // AI
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_AI_ENABLED?: boolean;
  @IsOptional() @EmptyAsUndefined() @IsString() MONITOR_AI_API_KEY?: string;
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() MONITOR_AI_BASE_URL?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MaxLength(200) MONITOR_AI_MODEL?: string;
  @IsOptional() @EmptyAsUndefined() @IsDuration() MONITOR_AI_TIMEOUT?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(16) @Max(32000) MONITOR_AI_MAX_TOKENS?: number;
  @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(5) MONITOR_AI_RETRIES?: number;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_AI_DIGEST_ENABLED?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_AI_TRIAGE_ENABLED?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_AI_RELEASE_SUMMARY_ENABLED?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_AI_CODE_REVIEW_ENABLED?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() MONITOR_AI_FAILURE_ANALYSIS_ENABLED?: boolean;

  // Agent access
  @IsOptional() @EmptyAsUndefined() @Matches(/^[A-Za-z0-9_.-]{3,128}$/, { message: 'must be 3-128 letters, digits or _.-' })
  MONITOR_OAUTH_CLIENT_ID?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() @MinLength(16) MONITOR_OAUTH_CLIENT_SECRET?: string;

  // Outbound proxy (standard names, also read in lower case)
  @IsOptional() @EmptyAsUndefined() @IsHttpUrl() HTTPS_PROXY?: string;
  @IsOptional() @EmptyAsUndefined() @IsString() NO_PROXY?: string;

  // Build metadata
  @IsOptional() @IsString() APP_VERSION?: string;
  @IsOptional() @IsString() GIT_SHA?: string;
  @IsOptional() @IsString() GIT_BRANCH?: string;
  @IsOptional() @IsString() BUILD_TIME?: string;
}

/** Variables that carry secrets: environment only, never in the YAML file, never in a message. */
export const SECRET_VARIABLES = [
  'MONITOR_ADMIN_PASSWORD',
  'MONITOR_ENCRYPTION_KEY',
  'MONITOR_ENCRYPTION_KEY_PREVIOUS',
  'MONITOR_VCS_WEBHOOK_SECRET',
  'MONITOR_VCS_WEBHOOK_PREVIOUS_SECRET',
  'MONITOR_EXTERNAL_PAT',
  'MONITOR_BOT_TOKEN',
  'MONITOR_HTTP_WEBHOOK_SECRET',
  'MONITOR_METRICS_TOKEN',
  'MONITOR_UPDATE_CHECK_TOKEN',
  'MONITOR_AI_API_KEY',
  'MONITOR_OAUTH_CLIENT_SECRET',
] as const;
