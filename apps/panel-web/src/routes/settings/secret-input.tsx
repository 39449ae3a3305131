import { Checkbox, PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SecretInput as SecretValue } from './settings-form';

export interface SecretInputProps {
  label: string;
  /** The service says a value is saved (`*_set`); the value itself never comes back. */
  isSet: boolean;
  input: SecretValue;
  onChange: (input: SecretValue) => void;
  /** The URL this secret goes to now points at another server, so the service wants it again. */
  neededAgain?: boolean;
  /** What to fix in the typed value (the form's check or the service's refusal). */
  error?: string;
  description?: string;
}

/** A write-only secret: empty keeps the saved value, typing replaces it, clearing is an explicit checkbox. */
export function SecretInput({ label, isSet, input, onChange, neededAgain, error, description }: SecretInputProps) {
  const { t } = useTranslation();
  const status = input.clear ? t('settings.secret.willClear') : isSet ? t('settings.secret.saved') : t('settings.secret.notSet');
  return (
    <Stack gap={4}>
      <PasswordInput
        label={label}
        description={description ? `${status} ${description}` : status}
        value={input.value}
        disabled={input.clear}
        autoComplete="new-password"
        error={error ?? (neededAgain ? t('settings.secret.neededAgain') : undefined)}
        onChange={(event) => onChange({ ...input, value: event.currentTarget.value })}
      />
      {isSet ? (
        <Checkbox
          size="xs"
          label={t('settings.secret.clear', { label })}
          checked={input.clear}
          onChange={(event) => onChange({ value: '', clear: event.currentTarget.checked })}
        />
      ) : null}
    </Stack>
  );
}
