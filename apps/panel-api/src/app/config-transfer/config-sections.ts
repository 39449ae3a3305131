import { Injectable } from '@nestjs/common';

/** What every masked secret looks like in an export. */
export const MASKED_SECRET = '***MASKED***';

/** On import, any of these in a secret field keeps the stored secret as it is. */
export const SECRET_PLACEHOLDERS: readonly string[] = ['***MASKED***', '***', 'MASKED', 'REDACTED'];

export function isSecretPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && SECRET_PLACEHOLDERS.includes(value.trim());
}

/** `***MASKED***` for a stored secret, null when there is none: an export never carries the secret itself. */
export function maskSecret(value: string | null | undefined): string | null {
  return value ? MASKED_SECRET : null;
}

export interface ImportSummary {
  created: Record<string, string[]>;
  overwritten: Record<string, string[]>;
  settingsChanged: boolean;
}

/** Runs after a successful import (listener restart, …); a throw is reported as not ok, never undone. */
export type AfterImportHook = (summary: ImportSummary) => Promise<void> | void;

/**
 * Where features plug into configuration import: after-import hooks (listener restart, …). A hook
 * that throws is reported as not ok in the import result.
 */
@Injectable()
export class ConfigSectionRegistry {
  private readonly hooks = new Map<string, AfterImportHook>();

  onImported(name: string, hook: AfterImportHook): void {
    this.hooks.set(name, hook);
  }

  afterImportHooks(): Array<[string, AfterImportHook]> {
    return [...this.hooks.entries()];
  }
}
