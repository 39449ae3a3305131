import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Language, LANGUAGES, saveLanguage } from './i18n';

/** Switches between English and Simplified Chinese and remembers the choice. */
export function LanguagePicker() {
  const { t, i18n } = useTranslation('ui');
  return (
    <NativeSelect
      size="xs"
      aria-label={t('language')}
      value={i18n.language}
      data={LANGUAGES.map((language) => ({ value: language.value, label: language.label }))}
      onChange={(event) => {
        const language = event.currentTarget.value as Language;
        saveLanguage(language);
        void i18n.changeLanguage(language);
      }}
    />
  );
}
