import { ConfigValidationError, RawVariables } from '@shared/config';
import { createMonitorApp, listenMonitorApp } from '../app/create-app';
import { loadMonitorConfig, monitorSecrets, configSummary, MonitorConfig, postgresUrlParses } from '../app/config/monitor-config';
import { packageVersion } from '../app/version';
import { reportError } from './output';
import { startupErrorCode, startupErrorMessage } from './startup-errors';

export interface CliContext {
  env: RawVariables;
  stdout: (line: string) => void;
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
      reportError('validation_failed', error.message);
      return undefined;
    }
    throw error;
  }
}

export async function serve(ctx: CliContext, args: ParsedArgs): Promise<number> {
  const config = loadOrReport(ctx, args.configFile);
  if (!config) return 1;
  const secrets = monitorSecrets(config);
  if (config.database.driver === 'postgres' && !postgresUrlParses(config.database.url)) {
    return reportError(
      'database_unavailable',
      'MONITOR_DATABASE_URL cannot be parsed; percent-encode special characters in the password (# %23, @ %40, : %3A, / %2F)',
    );
  }
  try {
    const app = await createMonitorApp(config);
    const url = await listenMonitorApp(app, config);
    ctx.stdout(`repo-monitor listening on ${url} (Swagger UI at /docs)`);
    return 0;
  } catch (error) {
    const kind = startupErrorCode(error);
    return reportError(kind, startupErrorMessage(kind, error), secrets);
  }
}

export function validate(ctx: CliContext, args: ParsedArgs): number {
  const config = loadOrReport(ctx, args.configFile);
  if (!config) return 1;
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
    return reportError('service_unavailable', `/readyz answered ${response.status}`);
  } catch (error) {
    return reportError('service_unavailable', `cannot reach ${url}: ${(error as Error).message}`);
  }
}

/** Runs one CLI invocation; resolves to the exit code (serve keeps the process alive itself). */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    return reportError('validation_failed', (error as Error).message);
  }
  const [first, second] = args.command;
  if (first === 'serve') return serve(ctx, args);
  if (first === 'config' && second === 'validate') return validate(ctx, args);
  if (first === 'version') return version(ctx);
  if (first === 'healthcheck') return healthcheck(ctx, args);
  process.stderr.write(USAGE);
  return args.flags.has('--help') ? 0 : 2;
}
