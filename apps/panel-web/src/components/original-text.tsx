import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The English text the service wrote (a run's message or error), folded away under what the page
 * said instead; nothing when the page showed that text itself.
 */
export function OriginalText({ text, shown }: { text: string | null | undefined; shown: string }) {
  const { t } = useTranslation();
  if (!text || text.toLowerCase() === shown.toLowerCase()) return null;
  return (
    <details>
      <summary>
        <Text span size="xs" c="dimmed">
          {t('runLog.originalText')}
        </Text>
      </summary>
      <pre className="plain-text" lang="en">
        {text}
      </pre>
    </details>
  );
}
