export type Strings = Record<string, unknown>;

/** What every routes/<page>/i18n.ts exports. */
export interface PageStrings {
  en: Strings;
  zh: Strings;
}

/** A page's strings live under its folder name in camelCase: routes/work-items → `t('workItems.title')`. */
export function folderKey(folder: string): string {
  return folder.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}
