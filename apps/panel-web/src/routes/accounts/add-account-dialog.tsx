import { Alert, Anchor, Button, Group, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { toast } from '@shared/web-ui';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettingsQuery } from '../../components/hooks';
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
  const settings = useSettingsQuery();
  // Every login method needs the instance's Telegram application (api_id and api_hash) first.
  const credentialsMissing = settings.data !== undefined && (settings.data.telegram_api_id === null || !settings.data.telegram_api_hash_set);
  const done = (account: Account) => {
    refreshAccounts();
    toast.success(relogin ? t('accounts.reloggedIn', { name: account.account_name }) : t('accounts.added', { name: account.account_name }));
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={relogin ? t('accounts.reloginTitle', { name: relogin }) : t('accounts.addTitle')} size="lg" fullScreen={phone} centered>
      {credentialsMissing ? (
        <MissingCredentials onClose={onClose} />
      ) : (
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
      )}
    </Modal>
  );
}

/** Instead of a login that can only fail: what the Telegram API credentials are, where to get them and where they go. */
function MissingCredentials({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="yellow" title={t('accounts.credentials.title')}>
        <Stack gap="xs">
          <Text size="sm">{t('accounts.credentials.why')}</Text>
          <Text size="sm">
            <Trans
              i18nKey="accounts.credentials.how"
              components={{ site: <Anchor href="https://my.telegram.org/apps" target="_blank" rel="noreferrer" size="sm" /> }}
            />
          </Text>
        </Stack>
      </Alert>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button component={Link} to="/settings?tab=telegram" onClick={onClose}>
          {t('accounts.credentials.open')}
        </Button>
      </Group>
    </Stack>
  );
}
