import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const WORKSPACE = join(__dirname, '../../../..');
const REDOCLY_CLI = join(WORKSPACE, 'node_modules/@redocly/cli/bin/cli.js');

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer: string;
}

/** `redocly lint` with the recommended rules over an OpenAPI file; every problem it reports. */
export function redoclyLint(file: string): LintProblem[] {
  const result = spawnSync(process.execPath, [REDOCLY_CLI, 'lint', file, '--extends=recommended', '--format=json', '--max-problems=10000'], {
    encoding: 'utf8',
    timeout: 60_000,
    // No network: no telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  if (!result.stdout.trim().startsWith('{')) throw new Error(`redocly lint gave no report (exit ${result.status}): ${result.stderr}`);
  const report = JSON.parse(result.stdout) as {
    problems: Array<{ ruleId: string; severity: 'error' | 'warn'; message: string; location: Array<{ pointer: string }> }>;
  };
  return report.problems.map((problem) => ({
    ruleId: problem.ruleId,
    severity: problem.severity,
    message: problem.message,
    pointer: problem.location[0]?.pointer ?? '',
  }));
}

/**
 * `@apidevtools/swagger-parser` validate() (schema and semantic checks) over an OpenAPI file; throws
 * with its message on failure. It runs in a child Node process: the parser's dependencies are ES
 * modules, which Jest's CommonJS runtime cannot load.
 */
export function validateOpenApi(file: string): void {
  const script = `import SwaggerParser from '@apidevtools/swagger-parser';
await SwaggerParser.validate(process.argv[1]).catch((error) => { console.error(error.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { cwd: WORKSPACE, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`swagger-parser: ${result.stderr.trim() || `exit ${result.status}`}`);
}
