import { Alert, Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, ColorSchemePicker, LanguagePicker, safeNext, useCountdown, useErrorMessage } from '@shared/web-ui';
import { ChangeEvent, FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { session, useSession } from '../../auth/session';

interface LoginValues {
  username: string;
  password: string;
  /** The authenticator code, asked for once the service says the admin has a second factor. */
  totpCode: string;
}

/** The service's answer to a login that needs (or got a wrong) TOTP code: 401 with details.totp_required. */
function needsTotp(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.details?.['totp_required'] === true;
}

/** The console's sign-in: a 429 shows a countdown from Retry-After; with no admin yet it points to the setup. */
export function LoginPage() {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'), '/dashboard', ['/login', '/setup']);
  const { csrfToken } = useSession();
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const secondsLeft = useCountdown(retryAt);
  // Two fields: plain state (a form library would be the largest part of this page's JavaScript).
  const [values, setValues] = useState<LoginValues>({ username: '', password: '', totpCode: '' });
  const [askTotp, setAskTotp] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof LoginValues, string>>>({});
  const setup = useQuery({ queryKey: ['setup', 'status'], queryFn: () => unwrap(api.GET('/api/v1/setup/status')), staleTime: 0 });
  const field = (name: keyof LoginValues) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });
  const login = useMutation({
    mutationFn: (credentials: LoginValues) =>
      unwrap(
        api.POST('/api/v1/auth/login', {
          body: { username: credentials.username.trim(), password: credentials.password, ...(askTotp && credentials.totpCode ? { totp_code: credentials.totpCode.trim() } : {}) },
        }),
      ),
    onSuccess: (result) => {
      session.signIn(result.csrf_token);
      void navigate(next, { replace: true });
    },
    onError: (error) => {
      if (needsTotp(error)) setAskTotp(true);
      if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined) setRetryAt(Date.now() + error.retryAfterSeconds * 1000);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<keyof LoginValues, string>> = {};
    if (!values.username.trim()) problems.username = t('login.required');
    if (!values.password) problems.password = t('login.required');
    if (askTotp && !/^\d{6}$/.test(values.totpCode.trim())) problems.totpCode = t('login.codeFormat');
    setErrors(problems);
    if (Object.keys(problems).length === 0) login.mutate(values);
  };
  useEffect(() => {
    document.title = `${t('login.title')} · ${t('appName')}`;
  }, [t]);
  if (csrfToken) return <Navigate to={next} replace />;
  if (setup.data && !setup.data.admin_exists) return <Navigate to="/setup" replace />;

  const error = login.error;
  let message: string | null = null;
  if (secondsLeft >= 60) message = t('login.throttledMinutes', { minutes: Math.floor(secondsLeft / 60), seconds: secondsLeft % 60 });
  else if (secondsLeft > 0) message = t('login.throttled', { seconds: secondsLeft });
  else if (needsTotp(error)) message = values.totpCode ? t('login.wrongCode') : t('login.enterCode');
  else if (error instanceof ApiError && error.status === 401) message = t('login.wrong');
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
            {askTotp ? (
              <TextInput label={t('login.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required data-autofocus autoFocus {...field('totpCode')} />
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
