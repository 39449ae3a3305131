import { Alert, Button, Center, Group, Image, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@shared/web-ui';
import QRCode from 'qrcode';
import { FormEvent, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTimeZone } from '../../components/hooks';
import { Account, accountsApi } from './accounts-api';
import { AccountNameField, FormError, ProxyField, proxyOk } from './account-fields';
import { currentLoginId, initialQrLogin, isAccountName, QR_POLL_INTERVAL_MS, qrLoginReducer, qrNeedsPolling, qrRefreshDelay } from './login-flow';

/** Forgets a login at the service (its Telegram connection closes); failures do not matter here. */
function forget(loginId: string): void {
  void accountsApi.cancelQrLogin(loginId).catch(() => undefined);
}

/** The login link as a QR code (rendered in the browser; the link never leaves the page). */
function QrImage({ url }: { url: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(url, { margin: 2, width: 240, errorCorrectionLevel: 'M' }).then((data) => {
      if (current) setSrc(data);
    });
    return () => {
      current = false;
    };
  }, [url]);
  return (
    <Center h={240}>
      {src ? <Image src={src} alt={t('accounts.qrAlt')} w={240} h={240} radius="sm" style={{ background: 'white' }} /> : <Loader aria-label={t('accounts.qrPreparing')} />}
    </Center>
  );
}

function useSecondsLeft(until: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? null : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * QR login: the code is shown and polled; shortly before it expires a fresh one replaces it (for a
 * few minutes), then the 2FA password when the account has one.
 */
export function QrLogin({ initialName, onDone }: { initialName?: string; onDone: (account: Account) => void }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const [state, dispatch] = useReducer(qrLoginReducer, initialQrLogin);
  const [name, setName] = useState(initialName ?? '');
  const [proxy, setProxy] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;

  const request = () => ({ account_name: name.trim(), proxy: proxy.trim() || undefined });
  const start = useMutation({
    mutationFn: () => accountsApi.startQrLogin(request()),
    onSuccess: (answer) => dispatch({ type: 'status', answer, now: Date.now() }),
  });
  const refresh = useMutation({
    mutationFn: () => accountsApi.startQrLogin(request()),
    onSuccess: (answer) => {
      const before = stateRef.current;
      if (before.step === 'scan') {
        dispatch({ type: 'status', answer, now: Date.now(), refresh: true });
        forget(before.loginId);
      } else {
        forget(answer.login_id); // the old code was scanned meanwhile: it stays
      }
    },
  });
  const sendPassword = useMutation({
    mutationFn: (input: { loginId: string; password: string }) => accountsApi.qrPassword(input.loginId, input.password),
    onSuccess: (answer) => dispatch({ type: 'status', answer, now: Date.now() }),
  });

  const loginId = currentLoginId(state);
  const poll = useQuery({
    queryKey: ['qr-login', loginId],
    queryFn: () => accountsApi.qrLogin(loginId ?? ''),
    enabled: loginId !== undefined && qrNeedsPolling(state),
    refetchInterval: QR_POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
    gcTime: 0,
    staleTime: 0,
  });
  useEffect(() => {
    if (poll.data) dispatch({ type: 'status', answer: poll.data, now: Date.now() });
  }, [poll.data]);

  // The reducer makes a new state only on a change, so the finished login is reported once.
  useEffect(() => {
    if (state.step === 'done') onDone(state.account);
  }, [state]);

  // A fresh code shortly before this one expires: one timer per code, not one per render.
  const refreshIn = qrRefreshDelay(state, Date.now());
  useEffect(() => {
    if (refreshIn === null) return undefined;
    const timer = setTimeout(() => refresh.mutate(), refreshIn);
    return () => clearTimeout(timer);
  }, [loginId, refreshIn === null]);

  // Closing the dialog forgets a login still in progress.
  useEffect(
    () => () => {
      const last = stateRef.current;
      const id = currentLoginId(last);
      if (id) forget(id);
    },
    [],
  );

  const secondsLeft = useSecondsLeft(state.step === 'scan' ? state.expiresAt : null);
  const submit = (action: () => void) => (event: FormEvent) => {
    event.preventDefault();
    action();
  };

  if (state.step === 'start') {
    const ready = isAccountName(name) && proxyOk(proxy);
    return (
      <form
        onSubmit={submit(() => {
          setTouched(true);
          if (ready) start.mutate();
        })}
        noValidate
      >
        <Stack gap="sm">
          <AccountNameField value={name} onChange={setName} fixed={!!initialName} touched={touched || name !== ''} />
          <ProxyField value={proxy} onChange={setProxy} />
          <FormError error={start.error} />
          <Group>
            <Button type="submit" loading={start.isPending} disabled={!name.trim()}>
              {t('accounts.showQr')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  if (state.step === 'scan') {
    return (
      <Stack gap="sm">
        <Text size="sm">{t('accounts.qrHowTo')}</Text>
        <QrImage url={state.qrUrl} />
        {state.expiresAt !== null && secondsLeft !== null ? (
          <Text size="sm" c="dimmed" role="status" aria-live="off">
            {t(refreshIn === null ? 'accounts.qrExpires' : 'accounts.qrExpiresRefresh', { seconds: secondsLeft, time: formatDateTime(state.expiresAt, timeZone) })}
          </Text>
        ) : null}
        {poll.error ? <FormError error={poll.error} /> : null}
        {refresh.error ? <FormError error={refresh.error} /> : null}
      </Stack>
    );
  }

  if (state.step === 'confirm') {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm">{t('accounts.qrScanned')}</Text>
      </Group>
    );
  }

  if (state.step === 'password') {
    const id = state.loginId;
    return (
      <form
        onSubmit={submit(() => {
          if (password) sendPassword.mutate({ loginId: id, password });
        })}
      >
        <Stack gap="sm">
          <Text size="sm">{t('accounts.passwordNeeded')}</Text>
          <PasswordInput
            label={t('accounts.twoStepPassword')}
            description={state.hint ? t('accounts.passwordHint', { hint: state.hint }) : undefined}
            required
            autoComplete="current-password"
            data-autofocus
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <FormError error={sendPassword.error} />
          <Group>
            <Button type="submit" loading={sendPassword.isPending} disabled={!password}>
              {t('accounts.logIn')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  if (state.step === 'done') return <Text size="sm">{t('accounts.loggedIn', { name: state.account.account_name })}</Text>;

  return (
    <Stack gap="sm">
      <Alert color={state.step === 'expired' ? 'yellow' : 'red'} variant="light" role="alert" title={state.step === 'expired' ? t('accounts.qrExpired') : t('accounts.qrFailed')}>
        {state.step === 'failed' && state.error ? <span style={{ overflowWrap: 'anywhere' }}>{state.error}</span> : t('accounts.qrAgainHint')}
      </Alert>
      <Group>
        <Button
          loading={start.isPending}
          onClick={() => {
            dispatch({ type: 'restart' });
            start.mutate();
          }}
        >
          {t('accounts.qrAgain')}
        </Button>
      </Group>
    </Stack>
  );
}
