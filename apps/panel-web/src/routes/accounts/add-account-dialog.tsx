import { Modal, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { Account, useRefreshAccounts } from './accounts-api';
import { ImportSession } from './import-session';
import { PhoneLogin } from './phone-login';
import { QrLogin } from './qr-login';

export type LoginMethod = 'phone' | 'qr' | 'session';

/** Adds an account (or logs one in again) by phone code, QR code or a session string. */
export function AddAccountDialog({
  opened,
  method,
  onMethod,
  relogin,
  onClose,
}: {
  opened: boolean;
  method: LoginMethod;
  onMethod: (method: LoginMethod) => void;
  /** The account to log in again (its name is fixed), or none for a new one. */
  relogin?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const refreshAccounts = useRefreshAccounts();
  const done = (account: Account) => {
    refreshAccounts();
    toast.success(relogin ? t('accounts.reloggedIn', { name: account.account_name }) : t('accounts.added', { name: account.account_name }));
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={relogin ? t('accounts.reloginTitle', { name: relogin }) : t('accounts.addTitle')} size="lg" fullScreen={phone} centered>
      {/* Each method mounts only while its tab is open, so leaving a tab forgets its login. */}
      <Tabs value={method} onChange={(value) => value && onMethod(value as LoginMethod)} keepMounted={false}>
        <Tabs.List grow mb="md">
          <Tabs.Tab value="phone">{t('accounts.byPhone')}</Tabs.Tab>
          <Tabs.Tab value="qr">{t('accounts.byQr')}</Tabs.Tab>
          <Tabs.Tab value="session">{t('accounts.bySession')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="phone">
          <PhoneLogin initialName={relogin} onDone={done} />
        </Tabs.Panel>
        <Tabs.Panel value="qr">
          <QrLogin initialName={relogin} onDone={done} />
        </Tabs.Panel>
        <Tabs.Panel value="session">
          <ImportSession initialName={relogin} onDone={done} />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
