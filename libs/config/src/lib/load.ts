import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
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
  if (document === null || document === undefined) return {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigValidationError([{ variable: '--config', rule: 'must be a YAML mapping' }]);
  }
  return flattenToVariables(document as Record<string, unknown>, prefix);
}

export function flattenToVariables(document: Record<string, unknown>, prefix: string): RawVariables {
  const out: RawVariables = {};
  const walk = (node: Record<string, unknown>, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      const next = [...path, key];
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        walk(value as Record<string, unknown>, next);
      } else if (value !== null && value !== undefined) {
        const name = prefix + next.join('_').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
        out[name] = Array.isArray(value) ? value.map(String).join(',') : String(value);
      }
    }
  };
  walk(document, []);
  return out;
}
