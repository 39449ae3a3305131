import { Button, Checkbox, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Account, accountsApi } from './accounts-api';
import { AccountNameField, FormError, ProxyField, proxyOk } from './account-fields';
import { isAccountName } from './login-flow';

/** Stores a GramJS/Telethon string session as an account (Telegram is asked at the next check). */
export function ImportSession({ initialName, onDone }: { initialName?: string; onDone: (account: Account) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName ?? '');
  const [sessionString, setSessionString] = useState('');
  const [remark, setRemark] = useState('');
  const [proxy, setProxy] = useState('');
  const [overwrite, setOverwrite] = useState(!!initialName);
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      accountsApi.importSession({
        account_name: name.trim(),
        session_string: sessionString.trim(),
        remark: remark.trim() || undefined,
        proxy: proxy.trim() || undefined,
        overwrite,
      }),
    onSuccess: onDone,
  });
  const ready = isAccountName(name) && sessionString.trim() !== '' && proxyOk(proxy);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (ready) save.mutate();
  };
  const exists = save.error instanceof ApiError && save.error.code === 'account_exists';
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <AccountNameField value={name} onChange={setName} fixed={!!initialName} touched={touched || name !== ''} />
        <Textarea
          label={t('accounts.sessionString')}
          description={t('accounts.sessionHint')}
          required
          autosize
          minRows={3}
          maxRows={6}
          maxLength={4096}
          autoComplete="off"
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
          value={sessionString}
          onChange={(event) => setSessionString(event.currentTarget.value)}
        />
        <TextInput label={t('accounts.remark')} maxLength={200} value={remark} onChange={(event) => setRemark(event.currentTarget.value)} />
        <ProxyField value={proxy} onChange={setProxy} />
        <Checkbox label={t('accounts.overwrite')} checked={overwrite} onChange={(event) => setOverwrite(event.currentTarget.checked)} />
        <FormError error={save.error} />
        {exists && !overwrite ? (
          <Text size="sm" c="dimmed">
            {t('accounts.existsHint')}
          </Text>
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!name.trim() || !sessionString.trim()}>
            {t('accounts.import')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
