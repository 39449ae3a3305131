import { en as sharedEn } from './en';
import { zh as sharedZh } from './zh';

type Strings = Record<string, unknown>;

interface PageStrings {
  en: Strings;
  zh: Strings;
}

/**
 * Every page keeps its strings beside it in routes/<page>/i18n.ts (exporting `en` and `zh`), so
 * pages are added without touching a shared file. They are collected here under the page's folder
 * name in camelCase: routes/work-items/i18n.ts → `t('workItems.title')`.
 */
const pages = import.meta.glob<PageStrings>('../routes/*/i18n.ts', { eager: true });

export function pageKey(path: string): string {
  const folder = /\/routes\/([^/]+)\/i18n\.ts$/.exec(path)?.[1];
  if (!folder) throw new Error(`not a page's i18n file: ${path}`);
  return folder.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function collect(language: keyof PageStrings, shared: Strings): Strings {
  const resources: Strings = { ...shared };
  for (const [path, strings] of Object.entries(pages)) {
    const key = pageKey(path);
    if (key in resources) throw new Error(`${path}: the key ${key} is taken`);
    resources[key] = strings[language];
  }
  return resources;
}

export const en = collect('en', sharedEn);
export const zh = collect('zh', sharedZh);
