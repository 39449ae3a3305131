import { Checkbox, PasswordInput, Stack } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { confirmAction } from './feedback';

export interface SecretFieldProps {
  label: string;
  /** The service says a value is saved (`*_set: true`); the value itself is never sent back. */
  isSet: boolean;
  value: string;
  onChange: (value: string) => void;
  /** Explicitly clear the saved value (sent as an empty string / null by the page). */
  clear: boolean;
  onClearChange: (clear: boolean) => void;
  description?: string;
}

/**
 * A write-only secret following the services' `*_set` rule: empty keeps the saved value, typing
 * replaces it, and clearing is an explicit checkbox.
 */
export function SecretField({ label, isSet, value, onChange, clear, onClearChange, description }: SecretFieldProps) {
  const { t } = useTranslation('ui');
  return (
    <Stack gap={4}>
      <PasswordInput
        label={label}
        description={description ?? (isSet ? t('secret.saved') : t('secret.notSet'))}
        value={value}
        disabled={clear}
        autoComplete="off"
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {isSet ? <Checkbox size="xs" label={`${t('secret.clear')}: ${label}`} checked={clear} onChange={(event) => onClearChange(event.currentTarget.checked)} /> : null}
    </Stack>
  );
}

/** What a SecretField means for the request body: undefined keeps, '' clears, text replaces. */
export function secretValue(value: string, clear: boolean): string | undefined {
  if (clear) return '';
  return value === '' ? undefined : value;
}

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
