import i18next, { i18n as I18n, Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { webUiEn, webUiZh } from './i18n-resources';

export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'zh-CN', label: '简体中文' },
] as const;
export type Language = (typeof LANGUAGES)[number]['value'];

const STORAGE_KEY = 'ui.language';

/** The saved language, else the browser's (any Chinese locale gets Simplified Chinese), else English. */
export function detectLanguage(storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(), navigatorLanguages: readonly string[] = browserLanguages()): Language {
  const saved = storage?.getItem(STORAGE_KEY);
  if (saved && LANGUAGES.some((language) => language.value === saved)) return saved as Language;
  for (const language of navigatorLanguages) {
    if (language.toLowerCase().startsWith('zh')) return 'zh-CN';
    if (language.toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function saveLanguage(language: Language): void {
  safeLocalStorage()?.setItem(STORAGE_KEY, language);
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
}

type AppStrings = Resource[string][string];

const loading = new WeakMap<I18n, Promise<void>>();

/**
 * Sets up i18next for a web app: the app's own strings under the `app` namespace plus this
 * library's under `ui`, English and Simplified Chinese. The Chinese strings may be given as a loader
 * (`() => import('./zh')…`): they are then fetched only when Chinese is the language, so English
 * readers do not download them; the app waits for `languageReady` before its first render, and a
 * switch to Chinese shows once they are in (no flash of the other language).
 */
export function createI18n(app: { en: AppStrings; zh: AppStrings | (() => Promise<AppStrings>) }, language: Language = detectLanguage()): I18n {
  const instance = i18next.createInstance();
  const loadChinese = typeof app.zh === 'function' ? app.zh : undefined;
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: LANGUAGES.map((entry) => entry.value),
    ns: ['app', 'ui'],
    defaultNS: 'app',
    resources: {
      en: { app: app.en, ui: webUiEn },
      'zh-CN': typeof app.zh === 'function' ? { ui: webUiZh } : { app: app.zh, ui: webUiZh },
    },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  if (loadChinese) {
    let chinese: Promise<void> | undefined;
    const ensureChinese = () =>
      (chinese ??= loadChinese().then(
        (strings: AppStrings) => {
          instance.addResourceBundle('zh-CN', 'app', strings, true, true);
        },
        (error: unknown) => {
          chinese = undefined;
          throw error;
        },
      ));
    const changeLanguage = instance.changeLanguage.bind(instance);
    instance.changeLanguage = (lng, callback) => (lng === 'zh-CN' ? ensureChinese().then(() => changeLanguage(lng, callback)) : changeLanguage(lng, callback));
    if (language === 'zh-CN') loading.set(instance, ensureChinese().catch(() => undefined));
  }
  instance.on('languageChanged', (lng) => {
    if (typeof document !== 'undefined') document.documentElement.lang = lng;
  });
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return instance;
}

/** Resolves once the strings of the instance's language are in (at once unless they are loaded on demand). */
export function languageReady(instance: I18n): Promise<void> {
  return loading.get(instance) ?? Promise.resolve();
}

/** Every key path of a nested resource object, sorted (for the test that keeps languages equal). */
export function keyPaths(resource: unknown, prefix = ''): string[] {
  if (!resource || typeof resource !== 'object') return [prefix];
  return Object.entries(resource as Record<string, unknown>)
    .flatMap(([key, value]) => keyPaths(value, prefix ? `${prefix}.${key}` : key))
    .sort();
}
