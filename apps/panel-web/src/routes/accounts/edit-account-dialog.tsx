import { Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { Account, accountsApi, useRefreshAccounts } from './accounts-api';
import { FormError, ProxyField, proxyOk } from './account-fields';

/**
 * What a save sends: the remark always; the proxy only when a new one is typed or removal is
 * ticked (the service shows the saved proxy masked, so it is never sent back as it was shown).
 */
export function accountChanges(remark: string, newProxy: string, removeProxy: boolean): Schemas['UpdateAccountDto'] {
  const body: Schemas['UpdateAccountDto'] = { remark: remark.trim() === '' ? null : remark.trim() };
  if (removeProxy) body.proxy = null;
  else if (newProxy.trim() !== '') body.proxy = newProxy.trim();
  return body;
}

/** Remark and proxy of an account; the service's 400 message shows in the form. */
export function EditAccountDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={account !== null} onClose={onClose} title={account ? t('accounts.editTitle', { name: account.account_name }) : ''} size="md" fullScreen={phone} centered>
      {account ? <EditAccountForm key={account.account_name} account={account} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditAccountForm({ account, onClose }: { account: Account; onClose: () => void }) {
  const { t } = useTranslation();
  const refreshAccounts = useRefreshAccounts();
  const [remark, setRemark] = useState(account.remark ?? '');
  const [proxy, setProxy] = useState('');
  const [removeProxy, setRemoveProxy] = useState(false);
  const save = useMutation({
    mutationFn: () => accountsApi.update(account.account_name, accountChanges(remark, proxy, removeProxy)),
    onSuccess: () => {
      refreshAccounts();
      toast.success(t('accounts.savedAccount', { name: account.account_name }));
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (removeProxy || proxyOk(proxy)) save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('accounts.remark')} description={t('accounts.remarkHint')} maxLength={200} value={remark} onChange={(event) => setRemark(event.currentTarget.value)} />
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {account.proxy ? t('accounts.currentProxy', { proxy: account.proxy }) : t('accounts.noProxy')}
        </Text>
        {removeProxy ? null : (
          <ProxyField value={proxy} onChange={setProxy} label={account.proxy ? t('accounts.newProxy') : t('accounts.proxy')} description={account.proxy ? t('accounts.newProxyHint') : t('accounts.proxyHint')} />
        )}
        {account.proxy ? <Checkbox label={t('accounts.removeProxy')} checked={removeProxy} onChange={(event) => setRemoveProxy(event.currentTarget.checked)} /> : null}
        <FormError error={save.error} />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!removeProxy && !proxyOk(proxy)}>
            {t('common.save')}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
