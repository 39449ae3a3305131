import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { confirmAction } from './feedback';

/** Asks before leaving the page (in-app navigation or closing the tab) while `dirty` is true. */
export function useUnsavedChangesGuard(dirty: boolean): void {
  const { t } = useTranslation('ui');
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirmAction({ title: t('unsaved.title'), message: t('unsaved.message'), confirmLabel: t('unsaved.leave'), cancelLabel: t('unsaved.stay') }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker, t]);
  useEffect(() => {
    if (!dirty) return undefined;
    const handler = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', handler);
    return () => window.removeEventListener('beforeunload', handler);
  }, [dirty]);
}
