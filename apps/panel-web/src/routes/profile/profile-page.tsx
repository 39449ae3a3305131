import { Badge, Button, Card, Group, Image, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { confirmAction, QueryState, toast } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { session } from '../../auth/session';
import { Page } from '../../components/page';
import { useChangePassword, useChangeUsername, useDisableTotp, useEnableTotp, useMeQuery, useStartTotpSetup } from './profile-api';

/** Username, password and TOTP (set up with QR and secret, enable, disable). */
export function ProfilePage() {
  const { t } = useTranslation();
  const me = useMeQuery();

  const [username, setUsername] = useState({ new_username: '', current_password: '' });
  const changeUsername = useChangeUsername({
    onSuccess: (token) => {
      session.logIn(token.access_token);
      setUsername({ new_username: '', current_password: '' });
      toast.success(t('profile.usernameChanged'));
    },
    onError: (error) => toast.error(error),
  });

  const [password, setPassword] = useState({ current_password: '', new_password: '', repeat: '' });
  const passwordMismatch = password.repeat !== '' && password.repeat !== password.new_password;
  const changePassword = useChangePassword({
    onSuccess: (token) => {
      session.logIn(token.access_token);
      setPassword({ current_password: '', new_password: '', repeat: '' });
      toast.success(t('profile.passwordChanged'));
    },
    onError: (error) => toast.error(error),
  });

  const [totpPassword, setTotpPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [setup, setSetup] = useState<Schemas['TotpSetupDto'] | null>(null);
  const startSetup = useStartTotpSetup({
    onSuccess: (result) => setSetup(result),
    onError: (error) => toast.error(error),
  });
  const enable = useEnableTotp({
    onSuccess: (result) => {
      session.logIn(result.access_token);
      setSetup(null);
      setTotpCode('');
      setTotpPassword('');
      toast.success(t('profile.totpEnabled'));
    },
    onError: (error) => toast.error(error),
  });
  const disable = useDisableTotp({
    onSuccess: () => {
      setTotpCode('');
      toast.success(t('profile.totpDisabled'));
    },
    onError: (error) => toast.error(error),
  });

  const submit = (action: () => void) => (event: FormEvent) => {
    event.preventDefault();
    action();
  };

  return (
    <Page title={t('profile.title')}>
      <QueryState query={me}>
        {(data) => (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Card withBorder component="form" onSubmit={submit(() => changeUsername.mutate(username))}>
              <Title order={3} size="h5" mb="xs">
                {t('profile.username')}
              </Title>
              <Text size="sm" mb="xs">
                {t('profile.current', { name: data.username })}
              </Text>
              <Stack gap="xs">
                <TextInput label={t('profile.newUsername')} required autoComplete="username" value={username.new_username} onChange={(event) => setUsername({ ...username, new_username: event.currentTarget.value })} />
                <PasswordInput label={t('profile.currentPassword')} required autoComplete="current-password" value={username.current_password} onChange={(event) => setUsername({ ...username, current_password: event.currentTarget.value })} />
                <Group>
                  <Button type="submit" loading={changeUsername.isPending} disabled={!username.new_username || !username.current_password}>
                    {t('profile.changeUsername')}
                  </Button>
                </Group>
              </Stack>
            </Card>
            <Card withBorder component="form" onSubmit={submit(() => changePassword.mutate({ current_password: password.current_password, new_password: password.new_password }))}>
              <Title order={3} size="h5" mb="xs">
                {t('profile.password')}
              </Title>
              <Stack gap="xs">
                <PasswordInput label={t('profile.currentPassword')} required autoComplete="current-password" value={password.current_password} onChange={(event) => setPassword({ ...password, current_password: event.currentTarget.value })} />
                <PasswordInput label={t('profile.newPassword')} description={t('profile.passwordRule')} required autoComplete="new-password" value={password.new_password} onChange={(event) => setPassword({ ...password, new_password: event.currentTarget.value })} />
                <PasswordInput
                  label={t('profile.repeatPassword')}
                  required
                  autoComplete="new-password"
                  value={password.repeat}
                  error={passwordMismatch ? t('profile.mismatch') : undefined}
                  onChange={(event) => setPassword({ ...password, repeat: event.currentTarget.value })}
                />
                <Group>
                  <Button type="submit" loading={changePassword.isPending} disabled={!password.current_password || password.new_password.length < 8 || password.repeat !== password.new_password}>
                    {t('profile.changePassword')}
                  </Button>
                </Group>
              </Stack>
            </Card>
            <Card withBorder>
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h5">
                  {t('profile.totp')}
                </Title>
                <Badge color={data.totp_enabled ? 'teal' : 'gray'} variant="light">
                  {data.totp_enabled ? t('profile.on') : t('profile.off')}
                </Badge>
              </Group>
              {data.totp_enabled ? (
                <form
                  onSubmit={submit(async () => {
                    if (await confirmAction({ title: t('profile.disableTitle'), message: t('profile.disableMessage'), confirmLabel: t('profile.disable'), cancelLabel: t('common.cancel') })) disable.mutate(totpCode);
                  })}
                >
                  <Stack gap="xs">
                    <TextInput label={t('profile.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={totpCode} onChange={(event) => setTotpCode(event.currentTarget.value)} />
                    <Group>
                      <Button type="submit" color="red" variant="light" loading={disable.isPending} disabled={!/^\d{6}$/.test(totpCode)}>
                        {t('profile.disable')}
                      </Button>
                    </Group>
                  </Stack>
                </form>
              ) : setup ? (
                <form onSubmit={submit(() => enable.mutate({ code: totpCode, current_password: totpPassword }))}>
                  <Stack gap="xs">
                    <Text size="sm">{t('profile.scan')}</Text>
                    <Image src={setup.qr_code_data_url} alt={t('profile.qrAlt')} w={200} h={200} />
                    <Text size="sm">
                      {t('profile.secret')} <code style={{ overflowWrap: 'anywhere' }}>{setup.secret}</code>
                    </Text>
                    <TextInput label={t('profile.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={totpCode} onChange={(event) => setTotpCode(event.currentTarget.value)} />
                    <Group>
                      <Button type="submit" loading={enable.isPending} disabled={!/^\d{6}$/.test(totpCode)}>
                        {t('profile.enable')}
                      </Button>
                      <Button variant="default" onClick={() => setSetup(null)}>
                        {t('common.cancel')}
                      </Button>
                    </Group>
                  </Stack>
                </form>
              ) : (
                <form onSubmit={submit(() => startSetup.mutate(totpPassword))}>
                  <Stack gap="xs">
                    <Text size="sm">{t('profile.totpIntro')}</Text>
                    <PasswordInput label={t('profile.currentPassword')} required autoComplete="current-password" value={totpPassword} onChange={(event) => setTotpPassword(event.currentTarget.value)} />
                    <Group>
                      <Button type="submit" loading={startSetup.isPending} disabled={!totpPassword}>
                        {t('profile.setUp')}
                      </Button>
                    </Group>
                  </Stack>
                </form>
              )}
            </Card>
          </SimpleGrid>
        )}
      </QueryState>
    </Page>
  );
}
