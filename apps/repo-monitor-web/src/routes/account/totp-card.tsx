import { Badge, Button, Card, Group, Image, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { confirmAction, toast } from '@shared/web-ui';
import { toDataURL } from 'qrcode';
import { FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { CopyableCode } from '../../components/copyable-code';

const SIX_DIGITS = /^\d{6}$/;

/** The QR code of an otpauth:// URI, drawn in the browser (the URI never leaves the page). */
function useQrCode(uri: string | null): string | null {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    if (!uri) {
      setImage(null);
      return undefined;
    }
    void toDataURL(uri, { margin: 1, width: 200, errorCorrectionLevel: 'M' }).then((url) => {
      if (current) setImage(url);
    });
    return () => {
      current = false;
    };
  }, [uri]);
  return image;
}

/** Two-step sign-in for the admin: set up with a QR code or the secret, turn on with a code, turn off (confirmed). */
export function TotpCard({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const qr = useQrCode(setup?.otpauth_uri ?? null);
  const done = () => {
    setPassword('');
    setCode('');
    setSetup(null);
    void queryClient.invalidateQueries({ queryKey: ['auth', 'session'] });
    void queryClient.invalidateQueries({ queryKey: ['auth', 'totp'] });
  };
  const start = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/totp/setup')),
    onSuccess: (result) => setSetup(result),
    onError: (error) => toast.error(error),
  });
  const enable = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/totp/enable', { body: { current_password: password, code } })),
    onSuccess: () => {
      done();
      toast.success(t('account.totpOnToast'));
    },
    onError: (error) => toast.error(error),
  });
  const disable = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/totp/disable', { body: { current_password: password, code } })),
    onSuccess: () => {
      done();
      toast.success(t('account.totpOffToast'));
    },
    onError: (error) => toast.error(error),
  });
  const submit = (action: () => void) => (event: FormEvent) => {
    event.preventDefault();
    action();
  };
  const passwordField = <PasswordInput label={t('account.currentPassword')} required autoComplete="current-password" value={password} onChange={(event) => setPassword(event.currentTarget.value)} />;
  const codeField = (
    <TextInput label={t('account.code')} description={t('account.codeHelp')} required inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(event) => setCode(event.currentTarget.value.trim())} />
  );

  let body;
  if (enabled) {
    body = (
      <form
        onSubmit={submit(async () => {
          if (await confirmAction({ title: t('account.totpOffTitle'), message: t('account.totpOffMessage'), confirmLabel: t('account.turnOff'), cancelLabel: t('common.cancel') })) disable.mutate();
        })}
      >
        <Stack gap="xs">
          <Text size="sm">{t('account.totpOnText')}</Text>
          {passwordField}
          {codeField}
          <Group>
            <Button type="submit" color="red" variant="light" loading={disable.isPending} disabled={!password || !SIX_DIGITS.test(code)}>
              {t('account.turnOff')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else if (setup) {
    body = (
      <form onSubmit={submit(() => enable.mutate())}>
        <Stack gap="xs">
          <Text size="sm">{t('account.scan')}</Text>
          {qr ? <Image src={qr} alt={t('account.qrAlt')} w={200} h={200} /> : null}
          <CopyableCode label={t('account.secret')} code={setup.secret} />
          {passwordField}
          {codeField}
          <Group>
            <Button type="submit" loading={enable.isPending} disabled={!password || !SIX_DIGITS.test(code)}>
              {t('account.turnOn')}
            </Button>
            <Button variant="default" onClick={() => setSetup(null)}>
              {t('common.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else {
    body = (
      <form onSubmit={submit(() => start.mutate())}>
        <Stack gap="xs">
          <Text size="sm">{t('account.totpIntro')}</Text>
          <Group>
            <Button type="submit" loading={start.isPending}>
              {t('account.setUp')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return (
    <Card withBorder>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {t('account.totp')}
        </Title>
        <Badge color={enabled ? 'teal' : 'gray'} variant="light">
          {enabled ? t('account.on') : t('account.off')}
        </Badge>
      </Group>
      {body}
    </Card>
  );
}
