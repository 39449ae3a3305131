import { createI18n, languageReady } from '@shared/web-ui';
import { en } from './en';

/**
 * The app's i18next instance. Bundled: English strings of the shell, the login and the dashboard.
 * Loaded on demand: the Chinese ones (when Chinese is shown) and each other page's strings, in both
 * languages, with the page (routes.tsx), so the login and the dashboard carry no other page's text.
 */
export const i18n = createI18n({ en, zh: () => import('./zh').then((module) => module.zh) });

/** Resolves when the strings of the language shown first are loaded (main.tsx renders after it). */
export const translationsReady = languageReady(i18n);

export interface PageStrings {
  en: object;
  zh: object;
}

/** Adds a page's strings (both languages) to the app's namespace; called before the page renders. */
export function addPageStrings(strings: PageStrings): void {
  i18n.addResourceBundle('en', 'app', strings.en, true, true);
  i18n.addResourceBundle('zh-CN', 'app', strings.zh, true, true);
}
