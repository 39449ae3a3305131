import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigValidationError,
  IsDuration,
  IsHostPort,
  IsHttpUrl,
  ToBoolean,
  ToInteger,
  flattenToVariables,
  knownVariableNames,
  parseDuration,
  parseHostPort,
  readYamlEntries,
  readYamlVariables,
  redactSecrets,
  validateVariables,
} from '../index';

class ExampleVariables {
  @IsOptional() @IsHostPort() HTTP_ADDR?: string;
  @IsOptional() @ToInteger() @IsInt() @Min(1) @Max(170) DAYS?: number;
  @IsOptional() @ToBoolean() @IsBoolean() ENABLED?: boolean;
  @IsOptional() @IsIn(['sqlite', 'postgres']) DRIVER?: string;
  @IsOptional() @IsDuration() TIMEOUT?: string;
  @IsOptional() @IsHttpUrl({ httpsOnly: true }) UPDATE_URL?: string;
  @IsOptional() @IsString() PASSWORD?: string;
}

describe('validateVariables', () => {
  it('converts valid variables to their types', () => {
    const parsed = validateVariables(ExampleVariables, {
      HTTP_ADDR: '127.0.0.1:8080',
      DAYS: '30',
      ENABLED: 'false',
      DRIVER: 'postgres',
      TIMEOUT: '1m30s',
      UPDATE_URL: 'https://example.com/releases',
    });
    expect(parsed).toMatchObject({ HTTP_ADDR: '127.0.0.1:8080', DAYS: 30, ENABLED: false, DRIVER: 'postgres' });
  });

  it('names every broken variable and rule but never the value', () => {
    const secretish = 'hunter2-super-secret';
    let error: ConfigValidationError | undefined;
    try {
      validateVariables(ExampleVariables, {
        HTTP_ADDR: secretish,
        DAYS: '171',
        ENABLED: 'maybe',
        DRIVER: 'mysql',
        TIMEOUT: 'soon',
        UPDATE_URL: 'http://example.com',
      });
    } catch (caught) {
      error = caught as ConfigValidationError;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    expect(error?.code).toBe('validation_failed');
    expect(error?.issues.map((issue) => issue.variable).sort()).toEqual(
      ['DAYS', 'DRIVER', 'ENABLED', 'HTTP_ADDR', 'TIMEOUT', 'UPDATE_URL'].sort(),
    );
    expect(error?.message).toContain('HTTP_ADDR: must be host:port');
    expect(error?.message).toContain('UPDATE_URL: must be an https URL');
    expect(error?.message).not.toContain(secretish);
  });
});

describe('parsers', () => {
  it.each([
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['7d', 604_800_000],
    ['1.5s', 1500],
  ])('parseDuration(%s) = %d', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '30', 's', '5 minutes', '-1s'])('parseDuration refuses %j', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );

  it('parses host:port including IPv6', () => {
    expect(parseHostPort('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseHostPort('[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(parseHostPort('0.0.0.0:9000')).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(parseHostPort(':9000')).toBeUndefined();
    expect(parseHostPort('[]:9000')).toBeUndefined();
    expect(parseHostPort('localhost')).toBeUndefined();
    expect(parseHostPort('host:70000')).toBeUndefined();
  });
});

describe('YAML files', () => {
  it('flattens nested keys to prefixed variable names', () => {
    expect(flattenToVariables({ http: { addr: ':1' }, ai: { base_url: 'x', enabled: true } }, 'MONITOR_')).toEqual({
      MONITOR_HTTP_ADDR: ':1',
      MONITOR_AI_BASE_URL: 'x',
      MONITOR_AI_ENABLED: 'true',
    });
  });

  it('reads a file and reports bad YAML by line, not content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, 'ok.yaml'), 'database:\n  driver: sqlite\n');
    expect(readYamlVariables(join(dir, 'ok.yaml'), 'MONITOR_')).toEqual({ MONITOR_DATABASE_DRIVER: 'sqlite' });
    writeFileSync(join(dir, 'bad.yaml'), 'a: [unclosed\n');
    expect(() => readYamlVariables(join(dir, 'bad.yaml'), 'MONITOR_')).toThrow(/not valid YAML/);
    expect(() => readYamlVariables(join(dir, 'missing.yaml'), 'MONITOR_')).toThrow(/ENOENT/);
  });

  it('keeps the dotted key each variable came from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, 'entries.yaml'), 'http:\n  addr: 127.0.0.1:1\nai:\n  base_url: http://x\n');
    expect(readYamlEntries(join(dir, 'entries.yaml'), 'MONITOR_')).toEqual([
      { key: 'http.addr', variable: 'MONITOR_HTTP_ADDR', value: '127.0.0.1:1' },
      { key: 'ai.base_url', variable: 'MONITOR_AI_BASE_URL', value: 'http://x' },
    ]);
  });
});

describe('knownVariableNames', () => {
  class Schema {
    @IsOptional() @IsString() FIRST?: string;
    @IsOptional() @IsString() SECOND?: string;
  }

  it('lists the properties a schema has rules for', () => {
    expect([...knownVariableNames(Schema)].sort()).toEqual(['FIRST', 'SECOND']);
  });
});

describe('redactSecrets', () => {
  it('removes known secrets and URL passwords', () => {
    expect(redactSecrets('token abcd1234 failed', ['abcd1234'])).toBe('token [REDACTED] failed');
    expect(redactSecrets('connect postgres://bob:p%40ss@db:5432/x failed')).toBe(
      'connect postgres://bob:[REDACTED]@db:5432/x failed',
    );
  });
});
