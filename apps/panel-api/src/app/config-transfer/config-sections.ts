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

/** Undoes what one `apply` wrote; called when a later step of the same import fails. */
export type ConfigUndo = () => Promise<void>;

export interface ItemCheck {
  /** The item's name when the document has a usable one. */
  name?: string;
  /** Everything wrong with the document; empty when it can be written. */
  problems: string[];
}

export interface ItemToWrite {
  name: string;
  /** The imported document as given; placeholders in secret fields mean "keep the stored secret". */
  document: Record<string, unknown>;
  /** true when an item of that name exists and is replaced. */
  replaces: boolean;
}

/**
 * A list of named documents in the configuration JSON (`signs`, `monitors`). The feature that
 * owns the documents registers one of these with ConfigSectionRegistry; configuration transfer
 * never touches their storage itself.
 */
export interface ConfigItemSection {
  /** Key of the array in the export document, e.g. `signs`. */
  readonly key: string;
  /** What one item is called in messages, e.g. `sign task`. */
  readonly label: string;
  /** Every item as exported: secrets replaced with MASKED_SECRET, no sessions, no run state. */
  exportAll(): Promise<Array<Record<string, unknown>>>;
  /** One item as exported, or undefined when there is none of that name. */
  exportOne(name: string): Promise<Record<string, unknown> | undefined>;
  /** Checks one imported document completely (shape, rules, references); writes nothing. */
  check(document: unknown): Promise<ItemCheck>;
  exists(name: string): Promise<boolean>;
  /**
   * Writes these items (all or none of them) and returns how to put back what was there before.
   * Called only after every section has checked the whole import without a problem.
   */
  apply(items: ItemToWrite[]): Promise<ConfigUndo>;
}

export interface ImportSummary {
  created: Record<string, string[]>;
  overwritten: Record<string, string[]>;
  settingsChanged: boolean;
}

/** Runs after a successful import (scheduler re-sync, listener restart); a failure is reported, not undone. */
export type AfterImportHook = (summary: ImportSummary) => Promise<void> | void;

/**
 * Where features plug into configuration export and import: item sections (sign tasks, monitors)
 * and after-import hooks. Settings (global, AI, Telegram API) are built in.
 */
@Injectable()
export class ConfigSectionRegistry {
  private readonly sections = new Map<string, ConfigItemSection>();
  private readonly hooks = new Map<string, AfterImportHook>();

  registerItemSection(section: ConfigItemSection): void {
    if (['_meta', 'settings'].includes(section.key)) throw new Error(`"${section.key}" is reserved in the configuration JSON`);
    this.sections.set(section.key, section);
  }

  unregisterItemSection(key: string): void {
    this.sections.delete(key);
  }

  itemSection(key: string): ConfigItemSection | undefined {
    return this.sections.get(key);
  }

  itemSections(): ConfigItemSection[] {
    return [...this.sections.values()];
  }

  onImported(name: string, hook: AfterImportHook): void {
    this.hooks.set(name, hook);
  }

  afterImportHooks(): Array<[string, AfterImportHook]> {
    return [...this.hooks.entries()];
  }
}
