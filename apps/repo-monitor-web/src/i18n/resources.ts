import { en as sharedEn } from './en';
import { folderKey, PageStrings, Strings } from './page-key';
import { zh as sharedZh } from './zh';

/**
 * Every string of the console in both languages, for tests (the key-parity test, component tests).
 * The app does not import this file: it loads each page's strings with its page (setup.ts).
 * Every page keeps its strings beside it in routes/<page>/i18n.ts (exporting `en` and `zh`), under
 * the page's folder name in camelCase: routes/work-items/i18n.ts → `t('workItems.title')`.
 */
const pages = import.meta.glob<PageStrings>('../routes/*/i18n.ts', { eager: true });

export function pageKey(path: string): string {
  const folder = /\/routes\/([^/]+)\/i18n\.ts$/.exec(path)?.[1];
  if (!folder) throw new Error(`not a page's i18n file: ${path}`);
  return folderKey(folder);
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
