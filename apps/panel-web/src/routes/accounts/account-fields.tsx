import { Alert, TextInput } from '@mantine/core';
import { ApiError, ErrorText } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { isAccountName, looksLikeProxy, proxyRule } from './login-flow';

/** The account name of a new login (fixed when logging an existing account in again). */
export function AccountNameField({ value, onChange, fixed, touched }: { value: string; onChange: (value: string) => void; fixed?: boolean; touched: boolean }) {
  const { t } = useTranslation();
  const invalid = touched && value.trim() !== '' && !isAccountName(value);
  return (
    <TextInput
      label={t('accounts.name')}
      description={t('accounts.nameRule')}
      required
      readOnly={fixed}
      autoComplete="off"
      maxLength={64}
      value={value}
      error={invalid ? t('accounts.nameInvalid') : undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** An optional proxy URL, checked for its form before sending (the service checks the rest). */
export function ProxyField({ value, onChange, label, description }: { value: string; onChange: (value: string) => void; label?: string; description?: string }) {
  const { t } = useTranslation();
  const rule = proxyRule(value);
  return (
    <TextInput
      label={label ?? t('accounts.proxy')}
      description={description ?? t('accounts.proxyHint')}
      placeholder="socks5://user:pass@127.0.0.1:1080"
      autoComplete="off"
      maxLength={1000}
      value={value}
      error={rule ? t(`fieldRules.${rule}`) : undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

export function proxyOk(value: string): boolean {
  return value.trim() === '' || looksLikeProxy(value);
}

/** The service's answer to a step of a form (its 400 message, Telegram's wait time), in the form. */
export function FormError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const wait = error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined ? t('accounts.floodWait', { seconds: error.retryAfterSeconds }) : null;
  return (
    <Alert color="red" variant="light" role="alert" title={t('accounts.failed')}>
      <span style={{ overflowWrap: 'anywhere' }}>{wait ?? <ErrorText error={error} />}</span>
    </Alert>
  );
}
