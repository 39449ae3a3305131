import { useTranslation } from 'react-i18next';

/** The event kinds of digests and reports, by the period they cover. */
const DIGEST_KINDS: Readonly<Record<string, string>> = { 'digest.daily': 'daily', 'report.weekly': 'weekly', 'report.monthly': 'monthly' };

/**
 * An event's title as a person reads it: the service titles its digests and reports in English
 * ("Daily digest 2026-11-28"), so those are said in the page's language (the day as the service
 * wrote it); every other title is GitHub's text, shown as it is.
 */
export function useEventTitle(): (event: { kind: string; title: string }) => string {
  const { t } = useTranslation();
  return (event) => {
    const period = DIGEST_KINDS[event.kind];
    const day = /(\d{4}-\d{2}-\d{2})$/.exec(event.title)?.[1];
    return period && day ? t(`digestTitles.${period}`, { day }) : event.title;
  };
}
