import { Alert, Button, Center, Code, Group, List, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, ColorSchemePicker, ErrorState, LanguagePicker, LoadingState, toast, useErrorMessage, useFieldErrors } from '@shared/web-ui';
import { ChangeEvent, FormEvent, ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { session, useSession } from '../../auth/session';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, setupProblems, SetupValues } from './setup-form';

/**
 * First run: creates the admin account, then signs in with the same credentials (the password is
 * typed once). From a client the service refuses (not loopback), it says why and what to set.
 */
export function SetupPage() {
  const { t } = useTranslation();
  const { csrfToken } = useSession();
  const status = useQuery({ queryKey: ['setup', 'status'], queryFn: () => unwrap(api.GET('/api/v1/setup/status')), staleTime: 0 });
  useEffect(() => {
    document.title = `${t('setup.title')} · ${t('appName')}`;
  }, [t]);

  if (csrfToken) return <Navigate to="/dashboard" replace />;
  let body: ReactNode;
  if (status.isPending) body = <LoadingState rows={4} />;
  else if (status.isError) body = <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  else if (status.data.admin_exists) body = <AdminExists />;
  else if (!status.data.setup_allowed) body = <SetupRefused />;
  else body = <SetupForm />;

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="lg" radius="md" w="100%" maw={520}>
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {t('setup.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('appName')}
            </Text>
          </div>
          {body}
          <Group justify="space-between" gap="xs">
            <ColorSchemePicker />
            <LanguagePicker />
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}

function AdminExists() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="blue" variant="light">
        {t('setup.exists')}
      </Alert>
      <Button component={Link} to="/login">
        {t('setup.toLogin')}
      </Button>
    </Stack>
  );
}

function SetupRefused() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={t('setup.refusedTitle')} role="alert">
      <Stack gap="xs">
        <Text size="sm">{t('setup.refusedBody')}</Text>
        <Text size="sm">{t('setup.refusedFixes')}</Text>
        <List size="sm" spacing={4}>
          <List.Item>{t('setup.fixTunnel')}</List.Item>
          <List.Item>{t('setup.fixEnv')}</List.Item>
          <List.Item>{t('setup.fixRemote')}</List.Item>
        </List>
        <Text size="xs" c="dimmed">
          <Code>MONITOR_SETUP_ALLOW_REMOTE</Code> · <Code>MONITOR_ADMIN_USERNAME</Code> · <Code>MONITOR_ADMIN_PASSWORD</Code>
        </Text>
      </Stack>
    </Alert>
  );
}

function SetupForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SetupValues>({ username: 'admin', password: '', repeat: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof SetupValues, string>>>({});
  const [placed, setPlaced] = useState(false);
  const fieldErrors = useFieldErrors();
  const describe = useErrorMessage();
  const field = (name: keyof SetupValues) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });
  const create = useMutation({
    mutationFn: async (credentials: SetupValues) => {
      const username = credentials.username.trim();
      await unwrap(api.POST('/api/v1/setup', { body: { username, password: credentials.password } }));
      return unwrap(api.POST('/api/v1/auth/login', { body: { username, password: credentials.password } }));
    },
    onSuccess: (result) => {
      session.signIn(result.csrf_token);
      toast.success(t('setup.created'));
      void navigate('/dashboard', { replace: true });
    },
    onError: (error) => {
      // A refusal of the user name or the password goes on that field, in the page's language.
      const onFields = fieldErrors(error, (name) => (name === 'username' || name === 'password' ? name : undefined));
      setPlaced(Object.keys(onFields).length > 0);
      setErrors((current) => ({ ...current, ...onFields }));
      // Someone finished setup meanwhile, or the service refuses this client: show the current state.
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) void queryClient.invalidateQueries({ queryKey: ['setup', 'status'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = setupProblems(values);
    setErrors(
      Object.fromEntries(
        Object.entries(problems).map(([name, problem]) => [name, t(`setup.${problem}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })]),
      ) as Partial<Record<keyof SetupValues, string>>,
    );
    if (Object.keys(problems).length === 0) create.mutate(values);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('setup.intro')}</Text>
        {create.error && !placed ? (
          <Alert color="red" variant="light" role="alert">
            {describe(create.error)}
          </Alert>
        ) : null}
        <TextInput label={t('setup.username')} description={t('setup.usernameHint')} autoComplete="username" required {...field('username')} />
        <PasswordInput
          label={t('setup.password')}
          description={t('setup.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
          required
          {...field('password')}
        />
        <PasswordInput label={t('setup.repeat')} autoComplete="new-password" required {...field('repeat')} />
        <Button type="submit" loading={create.isPending} fullWidth>
          {t('setup.submit')}
        </Button>
      </Stack>
    </form>
  );
}
