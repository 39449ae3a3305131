import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDateTime, Page, QueryState, toast, useFieldRefusal } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { TotpCard } from './totp-card';

export const PASSWORD_MIN_LENGTH = 12;

/** What stops a password change from being sent, if anything. */
export function passwordProblem(form: { current: string; next: string; repeat: string }): 'current' | 'short' | 'mismatch' | 'same' | null {
  if (!form.current) return 'current';
  if (form.next.length < PASSWORD_MIN_LENGTH) return 'short';
  if (form.next !== form.repeat) return 'mismatch';
  if (form.next === form.current) return 'same';
  return null;
}

/** The admin account: the session, a password change (other sessions end) and two-step sign-in. */
export function AccountPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const session = useQuery({ queryKey: ['auth', 'session'], queryFn: () => unwrap(api.GET('/api/v1/auth/session')) });
  const [form, setForm] = useState({ current: '', next: '', repeat: '' });
  const problem = passwordProblem(form);
  // A wrong current password or a new one the rule refuses goes on its field, in the page's language.
  const refusal = useFieldRefusal({ invalid_credentials: 'current_password' });
  const edit = (next: typeof form) => {
    if (next.current !== form.current) refusal.edited('current_password');
    if (next.next !== form.next) refusal.edited('new_password');
    setForm(next);
  };
  const change = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/password', { body: { current_password: form.current, new_password: form.next } })),
    onSuccess: () => {
      refusal.reset();
      setForm({ current: '', next: '', repeat: '' });
      toast.success(t('account.passwordChanged'));
    },
    onError: (error) => {
      if (!refusal.refuse(error)) toast.error(error);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!problem) change.mutate();
  };
  return (
    <Page title={t('account.title')}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('account.session')}
          </Title>
          <QueryState query={session}>
            {(data) => (
              <Stack gap={4}>
                <Text size="sm">{t('account.signedInAs', { name: data.username })}</Text>
                <Text size="sm" c="dimmed">
                  {t('account.since', { time: formatDateTime(data.created_at, timeZone, false) })}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('account.expires', { time: formatDateTime(data.expires_at, timeZone, false) })}
                </Text>
              </Stack>
            )}
          </QueryState>
        </Card>
        <Card withBorder component="form" onSubmit={submit} aria-labelledby="password-heading">
          <Title order={3} size="h5" mb="xs" id="password-heading">
            {t('account.password')}
          </Title>
          <Stack gap="xs">
            <PasswordInput
              label={t('account.currentPassword')}
              required
              autoComplete="current-password"
              value={form.current}
              error={refusal.errors['current_password']}
              onChange={(event) => edit({ ...form, current: event.currentTarget.value })}
            />
            <PasswordInput
              label={t('account.newPassword')}
              description={t('account.passwordRule', { min: PASSWORD_MIN_LENGTH })}
              required
              autoComplete="new-password"
              value={form.next}
              error={form.next && problem === 'same' ? t('account.same') : refusal.errors['new_password']}
              onChange={(event) => edit({ ...form, next: event.currentTarget.value })}
            />
            <PasswordInput
              label={t('account.repeatPassword')}
              required
              autoComplete="new-password"
              value={form.repeat}
              error={form.repeat && problem === 'mismatch' ? t('account.mismatch') : undefined}
              onChange={(event) => edit({ ...form, repeat: event.currentTarget.value })}
            />
            <Text size="xs" c="dimmed">
              {t('account.otherSessions')}
            </Text>
            <Group>
              <Button type="submit" loading={change.isPending} disabled={problem !== null}>
                {t('account.changePassword')}
              </Button>
            </Group>
          </Stack>
        </Card>
        {session.data ? <TotpCard enabled={session.data.totp_enabled} /> : null}
      </SimpleGrid>
    </Page>
  );
}
