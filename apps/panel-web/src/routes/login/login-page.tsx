import { Alert, Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiError, ColorSchemePicker, LanguagePicker, safeNext, useCountdown, useErrorMessage } from '@shared/web-ui';
import { ChangeEvent, FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { session, useSession } from '../../auth/session';
import { LoginValues, useLogIn } from './login-api';

/** Username, password and (when the account has it on) the TOTP code; 429 shows a countdown. */
export function LoginPage() {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const { token } = useSession();
  const [needsTotp, setNeedsTotp] = useState(false);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const secondsLeft = useCountdown(retryAt);
  const totpRef = useRef<HTMLInputElement>(null);
  // Three fields: plain state (a form library would be the largest part of this page's JavaScript).
  const [values, setValues] = useState<LoginValues>({ username: '', password: '', totp_code: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginValues, string>>>({});
  const field = (name: keyof LoginValues) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<keyof LoginValues, string>> = {};
    if (!values.username.trim()) problems.username = t('login.username');
    if (!values.password) problems.password = t('login.password');
    if (needsTotp && !/^\d{6}$/.test(values.totp_code)) problems.totp_code = t('login.totpHint');
    setErrors(problems);
    if (Object.keys(problems).length === 0) login.mutate(values);
  };
  const login = useLogIn({
    onSuccess: (result) => {
      session.logIn(result.access_token);
      void navigate(next, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined) {
        setRetryAt(Date.now() + error.retryAfterSeconds * 1000);
      }
      if (error instanceof ApiError && error.code === 'totp_required') {
        setNeedsTotp(true);
      }
    },
  });
  useEffect(() => {
    if (needsTotp) totpRef.current?.focus();
  }, [needsTotp]);
  if (token) return <Navigate to={next} replace />;

  const error = login.error;
  let message: string | null = null;
  if (secondsLeft > 0) message = t('login.throttled', { seconds: secondsLeft });
  else if (error instanceof ApiError && error.status === 401) message = error.code === 'totp_required' ? t('login.totpRequired') : t('login.wrong');
  else if (error && !(error instanceof ApiError && error.status === 429)) message = describeError(error);

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="lg" radius="md" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                {t('appName')}
              </Title>
              <Text c="dimmed" size="sm">
                {t('login.intro')}
              </Text>
            </div>
            {params.get('expired') ? (
              <Alert color="yellow" variant="light">
                {t('login.expired')}
              </Alert>
            ) : null}
            {message ? (
              <Alert color="red" variant="light" role="alert">
                {message}
              </Alert>
            ) : null}
            <TextInput label={t('login.username')} autoComplete="username" required {...field('username')} />
            <PasswordInput label={t('login.password')} autoComplete="current-password" required {...field('password')} />
            {needsTotp ? (
              <TextInput
                ref={totpRef}
                label={t('login.totp')}
                description={t('login.totpHint')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                required
                {...field('totp_code')}
              />
            ) : null}
            <Button type="submit" loading={login.isPending} disabled={secondsLeft > 0} fullWidth>
              {t('login.submit')}
            </Button>
            <Group justify="space-between" gap="xs">
              <ColorSchemePicker />
              <LanguagePicker />
            </Group>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
