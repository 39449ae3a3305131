import { Badge, Button, Card, Group, Image, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiError, confirmAction, QueryState, toast, useFieldRefusal } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { session } from '../../auth/session';
import { Page } from '../../components/page';
import { useChangePassword, useChangeUsername, useDisableTotp, useEnableTotp, useMeQuery, useStartTotpSetup } from './profile-api';

/** The password rule of both apps (panel-api's auth/password-rule.ts, the console's too): 12 to 256 characters. */
export const PASSWORD_MIN_LENGTH = 12;

/** The service's rule for a username (auth.dto.ts). */
const USERNAME = /^[A-Za-z0-9_.@-]+$/;

/** Username, password and TOTP (set up with QR and secret, enable, disable). */
export function ProfilePage() {
  const { t } = useTranslation();
  const me = useMeQuery();

  const usernameRefusal = useFieldRefusal({ wrong_current_password: 'current_password', username_taken: 'new_username' });
  const [username, setUsernameValues] = useState({ new_username: '', current_password: '' });
  const setUsername = (next: typeof username) => {
    for (const field of Object.keys(next) as Array<keyof typeof username>) if (next[field] !== username[field]) usernameRefusal.edited(field);
    setUsernameValues(next);
  };
  const usernameInvalid = username.new_username !== '' && (username.new_username.length > 64 || !USERNAME.test(username.new_username));
  const changeUsername = useChangeUsername({
    onSuccess: (token) => {
      session.logIn(token.access_token);
      usernameRefusal.reset();
      setUsernameValues({ new_username: '', current_password: '' });
      toast.success(t('profile.usernameChanged'));
    },
    onError: (error) => {
      if (!usernameRefusal.refuse(error)) toast.error(error);
    },
  });

  const passwordRefusal = useFieldRefusal({ wrong_current_password: 'current_password' });
  const [password, setPasswordValues] = useState({ current_password: '', new_password: '', repeat: '' });
  const setPassword = (next: typeof password) => {
    for (const field of Object.keys(next) as Array<keyof typeof password>) if (next[field] !== password[field]) passwordRefusal.edited(field);
    setPasswordValues(next);
  };
  const passwordMismatch = password.repeat !== '' && password.repeat !== password.new_password;
  const passwordShort = password.new_password !== '' && password.new_password.length < PASSWORD_MIN_LENGTH;
  const passwordSame = password.new_password !== '' && password.new_password === password.current_password;
  const changePassword = useChangePassword({
    onSuccess: (token) => {
      session.logIn(token.access_token);
      passwordRefusal.reset();
      setPasswordValues({ current_password: '', new_password: '', repeat: '' });
      toast.success(t('profile.passwordChanged'));
    },
    onError: (error) => {
      if (!passwordRefusal.refuse(error)) toast.error(error);
    },
  });

  // TOTP: the current password and the code go on their fields when the service refuses them.
  const totpRefusal = useFieldRefusal({ wrong_current_password: 'current_password', wrong_totp_code: 'code', totp_invalid: 'code' });
  const [totpPassword, setTotpPasswordValue] = useState('');
  const [totpCode, setTotpCodeValue] = useState('');
  const setTotpPassword = (value: string) => {
    totpRefusal.edited('current_password');
    setTotpPasswordValue(value);
  };
  const setTotpCode = (value: string) => {
    totpRefusal.edited('code');
    setTotpCodeValue(value);
  };
  const refuseTotp = (error: unknown) => {
    if (!totpRefusal.refuse(error)) toast.error(error);
  };
  const [setup, setSetup] = useState<Schemas['TotpSetupDto'] | null>(null);
  const startSetup = useStartTotpSetup({
    onSuccess: (result) => {
      totpRefusal.reset();
      setSetup(result);
    },
    onError: refuseTotp,
  });
  const enable = useEnableTotp({
    onSuccess: (result) => {
      session.logIn(result.access_token);
      totpRefusal.reset();
      setSetup(null);
      setTotpCodeValue('');
      setTotpPasswordValue('');
      toast.success(t('profile.totpEnabled'));
    },
    onError: (error) => {
      // The password was given on the step before: go back to it, where its error shows.
      if (error instanceof ApiError && error.code === 'wrong_current_password') setSetup(null);
      refuseTotp(error);
    },
  });
  const disable = useDisableTotp({
    onSuccess: () => {
      totpRefusal.reset();
      setTotpCodeValue('');
      toast.success(t('profile.totpDisabled'));
    },
    onError: refuseTotp,
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
                <TextInput
                  label={t('profile.newUsername')}
                  required
                  autoComplete="username"
                  value={username.new_username}
                  error={usernameInvalid ? t('profile.usernameRule') : usernameRefusal.errors['new_username']}
                  onChange={(event) => setUsername({ ...username, new_username: event.currentTarget.value })} />
                <PasswordInput
                  label={t('profile.currentPassword')}
                  required
                  autoComplete="current-password"
                  value={username.current_password}
                  error={usernameRefusal.errors['current_password']}
                  onChange={(event) => setUsername({ ...username, current_password: event.currentTarget.value })} />
                <Group>
                  <Button type="submit" loading={changeUsername.isPending} disabled={!username.new_username || !username.current_password || usernameInvalid}>
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
                <PasswordInput
                  label={t('profile.currentPassword')}
                  required
                  autoComplete="current-password"
                  value={password.current_password}
                  error={passwordRefusal.errors['current_password']}
                  onChange={(event) => setPassword({ ...password, current_password: event.currentTarget.value })} />
                <PasswordInput
                  label={t('profile.newPassword')}
                  description={t('profile.passwordRule', { min: PASSWORD_MIN_LENGTH })}
                  required
                  autoComplete="new-password"
                  value={password.new_password}
                  error={passwordShort ? t('profile.passwordShort', { min: PASSWORD_MIN_LENGTH }) : passwordSame ? t('profile.same') : passwordRefusal.errors['new_password']}
                  onChange={(event) => setPassword({ ...password, new_password: event.currentTarget.value })} />
                <PasswordInput
                  label={t('profile.repeatPassword')}
                  required
                  autoComplete="new-password"
                  value={password.repeat}
                  error={passwordMismatch ? t('profile.mismatch') : undefined}
                  onChange={(event) => setPassword({ ...password, repeat: event.currentTarget.value })}
                />
                <Group>
                  <Button type="submit" loading={changePassword.isPending} disabled={!password.current_password || passwordShort || passwordSame || password.new_password === '' || password.repeat !== password.new_password}>
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
                    <TextInput
                      label={t('profile.code')}
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={6}
                      value={totpCode}
                      error={totpRefusal.errors['code']}
                      onChange={(event) => setTotpCode(event.currentTarget.value)}
                    />
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
                    <TextInput
                      label={t('profile.code')}
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={6}
                      value={totpCode}
                      error={totpRefusal.errors['code']}
                      onChange={(event) => setTotpCode(event.currentTarget.value)}
                    />
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
                    <PasswordInput
                      label={t('profile.currentPassword')}
                      required
                      autoComplete="current-password"
                      value={totpPassword}
                      error={totpRefusal.errors['current_password']}
                      onChange={(event) => setTotpPassword(event.currentTarget.value)}
                    />
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
