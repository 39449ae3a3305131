import { createI18n, languageReady } from '@shared/web-ui';
import { en as sharedEn } from './en';
import { en as loginEn, zh as loginZh } from '../routes/login/i18n';
import { folderKey, PageStrings } from './page-key';

/**
 * The console's i18next instance. Bundled: the English strings of the shell and the login (the page
 * loaded without a round trip). Loaded on demand: the shell's Chinese, only when Chinese is shown,
 * and every other page's strings (routes/<page>/i18n.ts), with its page: `withPageStrings` in
 * routes.tsx loads them for each route whose path names a page folder, so a new page needs no wiring.
 */
export const i18n = createI18n({
  en: { ...sharedEn, login: loginEn },
  zh: () => import('./zh').then((module) => ({ ...module.zh, login: loginZh })),
});

/** Resolves when the strings of the language shown first are in (main.tsx renders after it). */
export const translationsReady = languageReady(i18n);

// Not eager: each page's file becomes its own chunk, fetched by loadPageStrings.
const pages = import.meta.glob<PageStrings>(['../routes/*/i18n.ts', '!../routes/login/i18n.ts']);
const loaders = new Map(Object.entries(pages).map(([path, load]) => [folderOf(path), load]));
const loaded = new Map<string, Promise<void>>();

function folderOf(path: string): string {
  const folder = /\/routes\/([^/]+)\/i18n\.ts$/.exec(path)?.[1];
  if (!folder) throw new Error(`not a page's i18n file: ${path}`);
  return folder;
}

/** Whether routes/<folder>/i18n.ts exists and is loaded on demand. */
export function hasPageStrings(folder: string): boolean {
  return loaders.has(folder);
}

/** Loads routes/<folder>/i18n.ts (once) and adds both languages under the folder's key. */
export function loadPageStrings(folder: string): Promise<void> {
  const load = loaders.get(folder);
  if (!load) return Promise.resolve();
  let promise = loaded.get(folder);
  if (!promise) {
    promise = load().then(
      (strings) => {
        const key = folderKey(folder);
        i18n.addResourceBundle('en', 'app', { [key]: strings.en }, true, true);
        i18n.addResourceBundle('zh-CN', 'app', { [key]: strings.zh }, true, true);
      },
      (error: unknown) => {
        loaded.delete(folder); // a failed fetch (a new deployment, the network) may be retried
        throw error;
      },
    );
    loaded.set(folder, promise);
  }
  return promise;
}
