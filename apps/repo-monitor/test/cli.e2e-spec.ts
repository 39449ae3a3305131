import { RawVariables } from '@shared/config';
import { createTestPostgresDatabase, requestJson, tempDir, testAdminDatabaseUrl } from '@shared/testing';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { runCli } from '../src/cli/commands';
import { TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY, startMonitor } from './harness';

interface CliRun {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function cli(argv: string[], env: RawVariables, stdin = ''): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, { env, stdout: (line) => stdout.push(line), stderr: (line) => stderr.push(line), readStdin: async () => stdin });
  return { code, stdout, stderr };
}

const dir = tempDir('monitor-cli-');
const sqliteEnv = (): RawVariables => ({ MONITOR_DATABASE_URL: `file:${join(dir.path, `${randomBytes(4).toString('hex')}.db`)}` });
const yaml = (name: string, text: string): string => {
  const path = join(dir.path, name);
  writeFileSync(path, text);
  return path;
};

interface RuleCase {
  rule: string;
  env: RawVariables;
  yaml?: string;
  /** Text the message must contain (the variable or YAML key, and the rule). */
  expect: RegExp;
  /** A secret in the input that must never be printed. */
  secret?: string;
}

const KEY_A = TEST_ENCRYPTION_KEY;

const RULES: RuleCase[] = [
  { rule: 'listen address needs host:port', env: { MONITOR_HTTP_ADDR: 'localhost' }, expect: /MONITOR_HTTP_ADDR: must be host:port/ },
  { rule: 'listen port in range', env: { MONITOR_HTTP_ADDR: '127.0.0.1:70000' }, expect: /MONITOR_HTTP_ADDR/ },
  { rule: 'listen address needs a host', env: { MONITOR_HTTP_ADDR: ':8080' }, expect: /MONITOR_HTTP_ADDR: must be host:port with a non-empty host/ },
  { rule: 'trust proxy is a boolean, hop count or address list', env: { MONITOR_HTTP_TRUST_PROXY: 'sometimes' }, expect: /MONITOR_HTTP_TRUST_PROXY: must be true, false, a hop count/ },
  { rule: 'public base URL is a URL', env: { MONITOR_PUBLIC_BASE_URL: 'monitor.example.com' }, expect: /MONITOR_PUBLIC_BASE_URL: must be an http\(s\) URL/ },
  { rule: 'driver sqlite or postgres only', env: { MONITOR_DATABASE_DRIVER: 'mysql' }, expect: /MONITOR_DATABASE_DRIVER: must be sqlite or postgres/ },
  { rule: 'postgres needs a URL', env: { MONITOR_DATABASE_DRIVER: 'postgres', MONITOR_DATABASE_URL: '' }, expect: /MONITOR_DATABASE_URL: must be a non-empty PostgreSQL URL/ },
  { rule: 'sqlite URL is file:<path>', env: { MONITOR_DATABASE_URL: '/var/lib/monitor.db' }, expect: /MONITOR_DATABASE_URL: must be file:<path>/ },
  { rule: 'max open connections at least 1', env: { MONITOR_DATABASE_MAX_OPEN_CONNS: '0' }, expect: /MONITOR_DATABASE_MAX_OPEN_CONNS/ },
  { rule: 'max idle connections is a number', env: { MONITOR_DATABASE_MAX_IDLE_CONNS: 'many' }, expect: /MONITOR_DATABASE_MAX_IDLE_CONNS/ },
  { rule: 'master key is 32 bytes', env: { MONITOR_ENCRYPTION_KEY: 'c2hvcnQta2V5LXNlY3JldA==' }, expect: /MONITOR_ENCRYPTION_KEY: must decode to exactly 32 bytes/, secret: 'c2hvcnQta2V5LXNlY3JldA==' },
  { rule: 'previous key is 32 bytes', env: { MONITOR_ENCRYPTION_KEY: KEY_A, MONITOR_ENCRYPTION_KEY_PREVIOUS: 'abcd'.repeat(15) }, expect: /MONITOR_ENCRYPTION_KEY_PREVIOUS/, secret: 'abcd'.repeat(15) },
  { rule: 'previous key needs a current key', env: { MONITOR_ENCRYPTION_KEY_PREVIOUS: KEY_A }, expect: /MONITOR_ENCRYPTION_KEY_PREVIOUS: needs MONITOR_ENCRYPTION_KEY/, secret: KEY_A },
  { rule: 'admin user name needs the password', env: { MONITOR_ADMIN_USERNAME: 'admin' }, expect: /MONITOR_ADMIN_USERNAME: must be set together with MONITOR_ADMIN_PASSWORD/ },
  { rule: 'admin password needs the user name', env: { MONITOR_ADMIN_PASSWORD: 'a-secret-admin-password' }, expect: /must be set together/, secret: 'a-secret-admin-password' },
  { rule: 'admin password length', env: { MONITOR_ADMIN_USERNAME: 'admin', MONITOR_ADMIN_PASSWORD: 'tiny-pw' }, expect: /MONITOR_ADMIN_PASSWORD/, secret: 'tiny-pw' },
  { rule: 'admin user name characters', env: { MONITOR_ADMIN_USERNAME: 'bad name', MONITOR_ADMIN_PASSWORD: 'long-enough-password' }, expect: /MONITOR_ADMIN_USERNAME/ },
  { rule: 'session lifetime is a duration', env: { MONITOR_ADMIN_SESSION_TTL: 'forever' }, expect: /MONITOR_ADMIN_SESSION_TTL: must be a duration/ },
  { rule: 'setup flag is a boolean', env: { MONITOR_SETUP_ALLOW_REMOTE: 'maybe' }, expect: /MONITOR_SETUP_ALLOW_REMOTE/ },
  { rule: 'app id is numeric', env: { MONITOR_VCS_APP_ID: 'my-app' }, expect: /MONITOR_VCS_APP_ID: must be a numeric app id/ },
  { rule: 'inbound secret length', env: { MONITOR_VCS_WEBHOOK_SECRET: 'short' }, expect: /MONITOR_VCS_WEBHOOK_SECRET/, secret: 'short' },
  { rule: 'starred user name', env: { MONITOR_STARRED_USERNAME: 'not a user!' }, expect: /MONITOR_STARRED_USERNAME/ },
  { rule: 'bot token shape', env: { MONITOR_BOT_TOKEN: 'not-a-bot-token-value' }, expect: /MONITOR_BOT_TOKEN: must look like/, secret: 'not-a-bot-token-value' },
  { rule: 'bot chat id', env: { MONITOR_BOT_CHAT_ID: 'team' }, expect: /MONITOR_BOT_CHAT_ID/ },
  { rule: 'outbound webhook URL', env: { MONITOR_HTTP_WEBHOOK_URL: 'hooks.example.com' }, expect: /MONITOR_HTTP_WEBHOOK_URL/ },
  { rule: 'outbound secret length', env: { MONITOR_HTTP_WEBHOOK_SECRET: 'short-secret' }, expect: /MONITOR_HTTP_WEBHOOK_SECRET/, secret: 'short-secret' },
  {
    rule: 'outbound secret differs from inbound',
    env: { MONITOR_VCS_WEBHOOK_SECRET: 'shared-secret-value-1', MONITOR_HTTP_WEBHOOK_SECRET: 'shared-secret-value-1' },
    expect: /MONITOR_HTTP_WEBHOOK_SECRET: must differ/,
    secret: 'shared-secret-value-1',
  },
  { rule: 'private targets flag', env: { MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'sometimes' }, expect: /MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE/ },
  { rule: 'insecure receivers flag', env: { MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE: 'sometimes' }, expect: /MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE/ },
  { rule: 'outbound webhook URL is https', env: { MONITOR_HTTP_WEBHOOK_URL: 'http://hooks.example.com/x' }, expect: /MONITOR_HTTP_WEBHOOK_URL: must be https/ },
  { rule: 'aggregation window duration', env: { MONITOR_AGGREGATION_WINDOW: '60' }, expect: /MONITOR_AGGREGATION_WINDOW: must be a duration/ },
  { rule: 'burst threshold positive', env: { MONITOR_AGGREGATION_BURST_THRESHOLD: '0' }, expect: /MONITOR_AGGREGATION_BURST_THRESHOLD/ },
  { rule: 'burst window duration', env: { MONITOR_AGGREGATION_BURST_WINDOW: 'long' }, expect: /MONITOR_AGGREGATION_BURST_WINDOW/ },
  { rule: 'log format json or text', env: { MONITOR_LOG_FORMAT: 'xml' }, expect: /MONITOR_LOG_FORMAT: must be json or text/ },
  { rule: 'log level', env: { MONITOR_LOG_LEVEL: 'trace' }, expect: /MONITOR_LOG_LEVEL: must be debug, info, warn or error/ },
  { rule: 'LOG_LEVEL alias is validated too', env: { LOG_LEVEL: 'verbose', MONITOR_LOG_LEVEL: 'info' }, expect: /MONITOR_LOG_LEVEL/ },
  { rule: 'metrics flag', env: { MONITOR_METRICS_ENABLED: 'perhaps' }, expect: /MONITOR_METRICS_ENABLED/ },
  { rule: 'update check flag', env: { MONITOR_UPDATE_CHECK: 'x' }, expect: /MONITOR_UPDATE_CHECK/ },
  { rule: 'update check URL is HTTPS', env: { MONITOR_UPDATE_CHECK_URL: 'http://updates.example.com/latest' }, expect: /MONITOR_UPDATE_CHECK_URL: must be an https URL/ },
  { rule: 'AI key required when enabled', env: { MONITOR_AI_ENABLED: 'true' }, expect: /MONITOR_AI_API_KEY: is required when MONITOR_AI_ENABLED=true/ },
  { rule: 'AI base URL', env: { MONITOR_AI_BASE_URL: 'openai' }, expect: /MONITOR_AI_BASE_URL/ },
  { rule: 'AI timeout duration', env: { MONITOR_AI_TIMEOUT: '30' }, expect: /MONITOR_AI_TIMEOUT: must be a duration/ },
  { rule: 'AI max tokens range', env: { MONITOR_AI_MAX_TOKENS: '5' }, expect: /MONITOR_AI_MAX_TOKENS/ },
  { rule: 'AI retries range', env: { MONITOR_AI_RETRIES: '9' }, expect: /MONITOR_AI_RETRIES/ },
  { rule: 'AI feature switch', env: { MONITOR_AI_TRIAGE_ENABLED: 'sure' }, expect: /MONITOR_AI_TRIAGE_ENABLED/ },
  { rule: 'OAuth client id characters', env: { MONITOR_OAUTH_CLIENT_ID: 'a b' }, expect: /MONITOR_OAUTH_CLIENT_ID/ },
  { rule: 'OAuth secret length', env: { MONITOR_ENCRYPTION_KEY: KEY_A, MONITOR_OAUTH_CLIENT_SECRET: 'tiny-oauth' }, expect: /MONITOR_OAUTH_CLIENT_SECRET/, secret: 'tiny-oauth' },
  { rule: 'OAuth secret needs the master key', env: { MONITOR_OAUTH_CLIENT_SECRET: 'long-enough-oauth-secret' }, expect: /MONITOR_OAUTH_CLIENT_SECRET: needs MONITOR_ENCRYPTION_KEY/, secret: 'long-enough-oauth-secret' },
  { rule: 'HTTPS_PROXY is a URL', env: { HTTPS_PROXY: 'proxy:3128' }, expect: /HTTPS_PROXY/ },
  { rule: 'secrets are refused in the YAML file', env: {}, yaml: 'admin:\n  password: yaml-admin-password\n', expect: /MONITOR_ADMIN_PASSWORD: is a secret/, secret: 'yaml-admin-password' },
  { rule: 'AI key is refused in the YAML file', env: {}, yaml: 'ai:\n  api_key: sk-yaml-secret\n', expect: /MONITOR_AI_API_KEY: is a secret/, secret: 'sk-yaml-secret' },
  { rule: 'a password inside a YAML database URL is refused', env: {}, yaml: 'database:\n  driver: postgres\n  url: postgres://bob:hunter2-pw@db/monitor\n', expect: /MONITOR_DATABASE_URL: carries a password/, secret: 'hunter2-pw' },
  { rule: 'unknown YAML keys are refused by name', env: {}, yaml: 'http:\n  adr: 127.0.0.1:1\n', expect: /http\.adr: is not a known configuration key/ },
  { rule: 'YAML values are validated like variables', env: {}, yaml: 'log:\n  level: loud\n', expect: /MONITOR_LOG_LEVEL/ },
  { rule: 'the YAML file must be valid', env: {}, yaml: 'http: [broken\n', expect: /--config: is not valid YAML/ },
];

describe('repo-monitor CLI', () => {
  afterAll(() => dir.remove());

  describe.each(['config validate', 'serve'])('%s refuses every broken rule with validation_failed', (command) => {
    it.each(RULES.map((rule) => [rule.rule, rule] as const))('%s', async (_name, rule) => {
      const args = command.split(' ');
      if (rule.yaml) args.push('--config', yaml(`${randomBytes(4).toString('hex')}.yaml`, rule.yaml));
      const run = await cli(args, { ...sqliteEnv(), ...rule.env });
      expect(run.code).toBe(1);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toMatch(/^error_code=validation_failed message=".+"$/);
      expect(run.stderr[0]).toMatch(rule.expect);
      if (rule.secret) expect(run.stderr[0]).not.toContain(rule.secret);
    });
  });

  it('config validate prints a one-line summary and merges defaults < YAML < environment', async () => {
    const file = yaml('ok.yaml', 'http:\n  addr: 0.0.0.0:9000\nlog:\n  level: debug\n  format: text\nai:\n  enabled: true\n  model: from-yaml\nsetup:\n  allow_remote: true\n');
    const run = await cli(['config', 'validate', '--config', file], {
      ...sqliteEnv(),
      MONITOR_HTTP_ADDR: '127.0.0.1:8181',
      MONITOR_AI_API_KEY: 'sk-env-secret',
      MONITOR_ADMIN_USERNAME: 'admin',
      MONITOR_ADMIN_PASSWORD: 'long-enough-password',
      MONITOR_ENCRYPTION_KEY: KEY_A,
    });
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([
      'config_valid driver=sqlite http_addr=127.0.0.1:8181 setup_remote=true admin_bootstrap=true encryption_key_configured=true ai_enabled=true metrics_enabled=true',
    ]);
    expect(run.stdout[0]).not.toContain('sk-env-secret');
  });

  it('LOG_FORMAT / LOG_LEVEL override the prefixed forms', async () => {
    const run = await cli(['config', 'validate'], { ...sqliteEnv(), MONITOR_LOG_LEVEL: 'loud', LOG_LEVEL: 'warn', MONITOR_LOG_FORMAT: 'xml', LOG_FORMAT: 'json' });
    expect(run.code).toBe(0);
  });

  describe('serve and the database', () => {
    it.each([['serve'], ['config validate'], ['admin reset-password --password-stdin']])(
      '%s reports an unparsable PostgreSQL URL as database_unavailable, with the same line, without echoing it',
      async (command) => {
        const env = { MONITOR_DATABASE_DRIVER: 'postgres', MONITOR_DATABASE_URL: 'postgres://bob:p@ss#w0rd@127.0.0.1:5432/monitor' };
        const run = await cli(command.split(' '), env, 'a-new-long-password\n');
        const served = await cli(['serve'], env);
        expect(run.code).toBe(1);
        expect(run.stdout).toEqual([]);
        expect(run.stderr).toHaveLength(1);
        expect(run.stderr[0]).toMatch(/^error_code=database_unavailable message="MONITOR_DATABASE_URL cannot be parsed; percent-encode/);
        expect(run.stderr).toEqual(served.stderr);
        expect(run.stderr[0]).not.toContain('p@ss#w0rd');
        expect(run.stderr[0]).not.toContain('ss#w0rd');
      },
    );

    it('reports an unreachable database as database_unavailable without the password', async () => {
      const run = await cli(['serve'], { MONITOR_HTTP_ADDR: '127.0.0.1:0', MONITOR_LOG_LEVEL: 'error', MONITOR_DATABASE_DRIVER: 'postgres', MONITOR_DATABASE_URL: 'postgres://bob:unreachable-pw@127.0.0.1:1/monitor' });
      expect(run.code).toBe(1);
      expect(run.stderr[0]).toMatch(/^error_code=database_unavailable /);
      expect(run.stderr[0]).not.toContain('unreachable-pw');
    });

    it('says a PostgreSQL user without CREATE on the schema cannot run migrations', async () => {
      const database = await createTestPostgresDatabase('monitor_nocreate');
      const role = `monitor_nocreate_${randomBytes(4).toString('hex')}`;
      const admin = new Client({ connectionString: database.url });
      await admin.connect();
      try {
        await admin.query(`CREATE ROLE "${role}" LOGIN PASSWORD 'role-password-1'`);
        await admin.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
        await admin.query(`GRANT CONNECT ON DATABASE "${database.name}" TO "${role}"`);
        await admin.query(`GRANT USAGE ON SCHEMA public TO "${role}"`);
        const url = new URL(database.url);
        url.username = role;
        url.password = 'role-password-1';
        const run = await cli(['serve'], { MONITOR_HTTP_ADDR: '127.0.0.1:0', MONITOR_LOG_LEVEL: 'error', MONITOR_DATABASE_DRIVER: 'postgres', MONITOR_DATABASE_URL: url.toString() });
        expect(run.code).toBe(1);
        expect(run.stderr[0]).toMatch(/^error_code=migration_failed message=".*cannot create tables \(grant CREATE on schema public\)/);
        expect(run.stderr[0]).not.toContain('role-password-1');
      } finally {
        await admin.end();
        await database.drop();
        const cleanup = new Client({ connectionString: testAdminDatabaseUrl() });
        await cleanup.connect();
        await cleanup.query(`DROP ROLE IF EXISTS "${role}"`);
        await cleanup.end();
      }
    });
  });

  describe('admin reset-password', () => {
    it('needs --password-stdin and a password that meets the rule', async () => {
      const noFlag = await cli(['admin', 'reset-password'], sqliteEnv());
      expect(noFlag.code).toBe(1);
      expect(noFlag.stderr[0]).toMatch(/--password-stdin/);
      const short = await cli(['admin', 'reset-password', '--password-stdin'], sqliteEnv(), 'short\n');
      expect(short.code).toBe(1);
      expect(short.stderr[0]).toMatch(/^error_code=validation_failed/);
      expect(short.stderr[0]).not.toContain('short"');
    });

    it('answers not_found when no admin exists', async () => {
      const run = await cli(['admin', 'reset-password', '--password-stdin'], sqliteEnv(), 'a-new-long-password\n');
      expect(run.code).toBe(1);
      expect(run.stderr[0]).toMatch(/^error_code=not_found/);
    });

    it('sets the new password and signs out every session', async () => {
      const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
      try {
        const login = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] } });
        const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
        const run = await cli(['admin', 'reset-password', '--password-stdin'], monitor.env, 'reset-by-cli-password\n');
        expect(run.stderr).toEqual([]);
        expect(run.code).toBe(0);
        expect(run.stdout).toEqual(['password_reset username=admin sessions_revoked=1 totp_disabled=false']);
        expect((await requestJson(monitor.url, '/api/v1/auth/session', { headers: { cookie } })).status).toBe(401);
        const fresh = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: 'reset-by-cli-password' } });
        expect(fresh.status).toBe(200);
      } finally {
        await monitor.close();
      }
    });
  });

  describe('as a process', () => {
    const main = resolve(__dirname, '../src/main.ts');
    const run = (args: string[], env: RawVariables, input?: string) =>
      spawnSync(process.execPath, ['-r', '@swc-node/register', main, ...args], {
        env: { PATH: process.env['PATH'], SWC_NODE_PROJECT: resolve(__dirname, '../tsconfig.app.json'), ...env },
        input,
        encoding: 'utf8',
        timeout: 60_000,
      });

    it('exits 0 with the summary, 1 on a broken rule, 2 on an unknown command', () => {
      const ok = run(['config', 'validate'], sqliteEnv());
      expect(ok.stderr).toBe('');
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(/^config_valid driver=sqlite /);
      const bad = run(['config', 'validate'], { ...sqliteEnv(), MONITOR_ADMIN_USERNAME: 'admin', MONITOR_ADMIN_PASSWORD: 'tiny-secret' });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/^error_code=validation_failed message=".*MONITOR_ADMIN_PASSWORD/);
      expect(bad.stderr).not.toContain('tiny-secret');
      const serveBad = run(['serve'], { ...sqliteEnv(), MONITOR_ENCRYPTION_KEY: 'not-a-key-secret' });
      expect(serveBad.status).toBe(1);
      expect(serveBad.stderr).not.toContain('not-a-key-secret');
      expect(run(['frobnicate'], sqliteEnv()).status).toBe(2);
      const version = run(['version'], sqliteEnv());
      expect(version.status).toBe(0);
      expect(version.stdout).toMatch(/^repo-monitor \S+ git_sha=/);
    });

    it('reads the reset password from stdin', () => {
      const result = run(['admin', 'reset-password', '--password-stdin'], sqliteEnv(), 'stdin-password-long\n');
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^error_code=not_found/);
      expect(result.stderr).not.toContain('stdin-password-long');
    });
  });
});
