import { ConfigValidationError, packageVersion, RawVariables } from '@shared/config';
import { onStopSignals } from '@shared/http-service';
import { createMonitorApp, listenMonitorApp, servesConsole, shutDownMonitorApp } from '../app/create-app';
import { loadMonitorConfig, monitorSecrets, configSummary, MonitorConfig, postgresUrlParses } from '../app/config/monitor-config';
import { ResetPasswordError, passwordFromStdin, resetAdminPassword } from './admin-reset-password';
import { ErrorWriter, reportError } from './output';
import { startupErrorCode, startupErrorMessage } from './startup-errors';

export interface CliContext {
  env: RawVariables;
  stdout: (line: string) => void;
  /** Error lines; defaults to the process's stderr. */
  stderr?: ErrorWriter;
  /** Everything on standard input (for `--password-stdin`); defaults to the process's stdin. */
  readStdin?: () => Promise<string>;
  /** The built console (index.html and assets) `serve` answers at `/`; none serves the API only. */
  webRoot?: string;
}

function fail(ctx: CliContext, code: string, message: string, secrets: string[] = []): number {
  return reportError(code, message, secrets, ctx.stderr);
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

export interface ParsedArgs {
  command: string[];
  configFile?: string;
  flags: Set<string>;
}

export const USAGE = `usage: repo-monitor <command>

commands:
  serve [--config FILE]              start the server
  config validate [--config FILE]    check the configuration and print a one-line summary
  version                            print the version and build data
  admin reset-password --password-stdin [--config FILE]
                                     set a new admin password read from stdin; turns the second
                                     factor (TOTP) off and signs out every session
  healthcheck                        exit 0 when the local /readyz answers 200
`;

export function parseArgs(argv: string[]): ParsedArgs {
  const command: string[] = [];
  const flags = new Set<string>();
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--config' || arg === '-c') {
      configFile = argv[++i];
      if (!configFile) throw new ConfigValidationError([{ variable: '--config', rule: 'needs a file path' }]);
    } else if (arg.startsWith('--config=')) {
      configFile = arg.slice('--config='.length);
    } else if (arg.startsWith('--')) {
      flags.add(arg);
    } else {
      command.push(arg);
    }
  }
  return { command, configFile, flags };
}

/** Loads configuration or prints validation_failed; undefined means "exit 1". */
export function loadOrReport(ctx: CliContext, configFile?: string): MonitorConfig | undefined {
  try {
    return loadMonitorConfig({ env: ctx.env, configFile });
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      fail(ctx, 'validation_failed', error.message);
      return undefined;
    }
    throw error;
  }
}

/**
 * A PostgreSQL URL that cannot be parsed is reported as database_unavailable (the spec's code for it)
 * by every command that reads the configuration, `config validate` included; true when reported.
 */
function reportUnparsableDatabaseUrl(ctx: CliContext, config: MonitorConfig): boolean {
  if (config.database.driver !== 'postgres' || postgresUrlParses(config.database.url)) return false;
  fail(ctx, 'database_unavailable', 'MONITOR_DATABASE_URL cannot be parsed; percent-encode special characters in the password (# %23, @ %40, : %3A, / %2F)');
  return true;
}

export async function serve(ctx: CliContext, args: ParsedArgs): Promise<number> {
  const config = loadOrReport(ctx, args.configFile);
  if (!config) return 1;
  const secrets = monitorSecrets(config);
  if (reportUnparsableDatabaseUrl(ctx, config)) return 1;
  try {
    const app = await createMonitorApp(config, undefined, { webRoot: ctx.webRoot });
    const url = await listenMonitorApp(app);
    ctx.stdout(`repo-monitor listening on ${url} (${servesConsole(app) ? 'console at /, ' : ''}Swagger UI at /docs)`);
    onStopSignals('repo-monitor', () => shutDownMonitorApp(app, config));
    return 0;
  } catch (error) {
    const kind = startupErrorCode(error);
    return fail(ctx, kind, startupErrorMessage(kind, error), secrets);
  }
}

export function validate(ctx: CliContext, args: ParsedArgs): number {
  const config = loadOrReport(ctx, args.configFile);
  if (!config) return 1;
  if (reportUnparsableDatabaseUrl(ctx, config)) return 1;
  ctx.stdout(configSummary(config));
  return 0;
}

export function version(ctx: CliContext): number {
  const config = (() => {
    try {
      return loadMonitorConfig({ env: ctx.env });
    } catch {
      return undefined;
    }
  })();
  const build = config?.build;
  ctx.stdout(
    `repo-monitor ${build?.version ?? packageVersion()} git_sha=${build?.gitSha ?? 'unknown'} branch=${build?.gitBranch ?? 'unknown'} built=${build?.buildTime ?? 'unknown'} node=${process.version}`,
  );
  return 0;
}

export async function healthcheck(ctx: CliContext, args: ParsedArgs): Promise<number> {
  const config = loadOrReport(ctx, args.configFile);
  if (!config) return 1;
  const host = ['0.0.0.0', '::'].includes(config.http.host) ? '127.0.0.1' : config.http.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.http.port}/readyz`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
    if (response.status === 200) return 0;
    return fail(ctx, 'service_unavailable', `/readyz answered ${response.status}`);
  } catch (error) {
    return fail(ctx, 'service_unavailable', `cannot reach ${url}: ${(error as Error).message}`);
  }
}

export async function adminResetPassword(ctx: CliContext, args: ParsedArgs): Promise<number> {
  if (!args.flags.has('--password-stdin')) {
    return fail(ctx, 'validation_failed', 'admin reset-password needs --password-stdin: the password is read from standard input, never from arguments');
  }
  const config = loadOrReport(ctx, args.configFile);
  if (!config) return 1;
  const secrets = monitorSecrets(config);
  if (reportUnparsableDatabaseUrl(ctx, config)) return 1;
  const password = passwordFromStdin(await (ctx.readStdin ?? readProcessStdin)());
  try {
    const result = await resetAdminPassword(config, password);
    ctx.stdout(`password_reset username=${result.username} sessions_revoked=${result.sessionsRevoked} totp_disabled=${result.totpDisabled}`);
    return 0;
  } catch (error) {
    if (error instanceof ResetPasswordError) return fail(ctx, error.code, error.message, [...secrets, password]);
    const kind = startupErrorCode(error);
    return fail(ctx, kind, startupErrorMessage(kind, error), [...secrets, password]);
  }
}

/** Runs one CLI invocation; resolves to the exit code (serve keeps the process alive itself). */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    return fail(ctx, 'validation_failed', (error as Error).message);
  }
  const [first, second] = args.command;
  if (first === 'serve') return serve(ctx, args);
  if (first === 'config' && second === 'validate') return validate(ctx, args);
  if (first === 'version') return version(ctx);
  if (first === 'healthcheck') return healthcheck(ctx, args);
  if (first === 'admin' && second === 'reset-password') return adminResetPassword(ctx, args);
  process.stderr.write(USAGE);
  return args.flags.has('--help') ? 0 : 2;
}
