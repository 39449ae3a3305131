import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigIssue, ConfigValidationError } from './errors';

export type RawVariables = Record<string, string | undefined>;

/** The process environment, copied. The one place outside app config modules that touches process.env. */
export function processEnvironment(): RawVariables {
  return { ...process.env };
}

function collectIssues(errors: ValidationError[], parent = ''): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const error of errors) {
    const variable = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      // class-validator messages begin with the property name; keep only the rule.
      issues.push({ variable, rule: message.startsWith(error.property) ? message.slice(error.property.length).trim() : message });
    }
    issues.push(...collectIssues(error.children ?? [], variable));
  }
  return issues;
}

/**
 * Validates raw variables against a class whose properties are the variable names and whose
 * class-validator decorators are the rules. Returns the transformed instance or throws
 * ConfigValidationError listing every broken rule (never a value).
 */
export function validateVariables<T extends object>(schema: ClassConstructor<T>, raw: Record<string, unknown>): T {
  const instance = plainToInstance(schema, raw, { exposeDefaultValues: true });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw new ConfigValidationError(collectIssues(errors));
  return instance;
}

/**
 * Reads a YAML configuration file and flattens it to variable names:
 * `{http: {addr: x}}` with prefix `MONITOR_` becomes `MONITOR_HTTP_ADDR=x`.
 */
export function readYamlVariables(path: string, prefix: string): RawVariables {
  const out: RawVariables = {};
  for (const entry of readYamlEntries(path, prefix)) out[entry.variable] = entry.value;
  return out;
}

/** One leaf of a YAML configuration file: its dotted key as written and the variable it maps to. */
export interface YamlEntry {
  key: string;
  variable: string;
  value: string;
}

/** Like readYamlVariables, but keeps each dotted YAML key so messages can name what the user wrote. */
export function readYamlEntries(path: string, prefix: string): YamlEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigValidationError([{ variable: '--config', rule: `file cannot be read (${code})` }]);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    const line = (error as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    throw new ConfigValidationError([{ variable: '--config', rule: `is not valid YAML${line ? ` (line ${line})` : ''}` }]);
  }
  if (document === null || document === undefined) return [];
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigValidationError([{ variable: '--config', rule: 'must be a YAML mapping' }]);
  }
  return flattenToEntries(document as Record<string, unknown>, prefix);
}

function flattenToEntries(document: Record<string, unknown>, prefix: string): YamlEntry[] {
  const out: YamlEntry[] = [];
  const walk = (node: Record<string, unknown>, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      const next = [...path, key];
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        walk(value as Record<string, unknown>, next);
      } else if (value !== null && value !== undefined) {
        out.push({
          key: next.join('.'),
          variable: prefix + next.join('_').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase(),
          value: Array.isArray(value) ? value.map(String).join(',') : String(value),
        });
      }
    }
  };
  walk(document, []);
  return out;
}

export function flattenToVariables(document: Record<string, unknown>, prefix: string): RawVariables {
  const out: RawVariables = {};
  for (const entry of flattenToEntries(document, prefix)) out[entry.variable] = entry.value;
  return out;
}

/** The property names a class-validator schema declares rules for: the variables it knows. */
export function knownVariableNames(schema: new () => object): Set<string> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false);
  return new Set(metadata.map((entry) => entry.propertyName));
}
