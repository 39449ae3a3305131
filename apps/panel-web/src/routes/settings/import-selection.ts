import type { Schemas } from '../../api/client';

export type ImportItem = Schemas['ImportItemDto'];
export type ImportAction = ImportItem['action'];

/** Items an import would write: a refused, unchanged or skipped (exists, no overwrite) item cannot be chosen. */
export function isSelectable(item: ImportItem): boolean {
  return item.action === 'create' || item.action === 'overwrite' || item.action === 'update';
}

/** What a fresh preview starts with: every item that would be written. */
export function initialSelection(items: readonly ImportItem[]): string[] {
  return items.filter(isSelectable).map((item) => item.key);
}

/**
 * Why an item is skipped or changes, as a message key of this page: the service's own reason for
 * these two speaks in API terms (overwrite=true, "selected"), in English. A refusal's reason lists
 * the item's problems and is shown as the service gives it.
 */
export function reasonKey(item: ImportItem): 'settings.import.reasons.skip' | 'settings.import.reasons.settings' | null {
  if (item.action === 'skip') return 'settings.import.reasons.skip';
  if (item.action === 'update' && item.section === 'settings') return 'settings.import.reasons.settings';
  return null;
}

export function toggleSelection(selected: readonly string[], key: string, on: boolean): string[] {
  const rest = selected.filter((entry) => entry !== key);
  return on ? [...rest, key] : rest;
}

/** Select every selectable item, or none when they are all selected already. */
export function toggleAll(items: readonly ImportItem[], selected: readonly string[]): string[] {
  const selectable = initialSelection(items);
  return selectable.every((key) => selected.includes(key)) ? [] : selectable;
}

/** The keys to send, in the preview's order, keeping only items that still exist and can be written. */
export function selectionToSend(items: readonly ImportItem[], selected: readonly string[]): string[] {
  return items.filter((item) => isSelectable(item) && selected.includes(item.key)).map((item) => item.key);
}

/** Parses the chosen file: the configuration JSON object, or a message key of what is wrong. */
export function parseConfigFile(text: string): { document: Record<string, unknown> } | { problem: 'notJson' | 'notObject' } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { problem: 'notJson' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: 'notObject' };
  return { document: parsed as Record<string, unknown> };
}
