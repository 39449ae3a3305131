import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { FormEvent, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Account, accountsApi } from './accounts-api';
import { AccountNameField, FormError, ProxyField, proxyOk } from './account-fields';
import { initialPhoneLogin, isAccountName, isLoginCode, isPhoneNumber, phoneLoginReducer } from './login-flow';

const CODE_TYPES = ['app', 'sms', 'call'] as const;

/** Phone number → the code Telegram sends → the 2FA password when the account has one. */
export function PhoneLogin({ initialName, onDone }: { initialName?: string; onDone: (account: Account) => void }) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(phoneLoginReducer, initialPhoneLogin);
  const [name, setName] = useState(initialName ?? '');
  const [phone, setPhone] = useState('');
  const [proxy, setProxy] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;
  // Closing the dialog while Telegram waits for the code (or the password) forgets that login.
  useEffect(
    () => () => {
      const last = stateRef.current;
      if (last.step === 'code' || last.step === 'password') void accountsApi.cancelPhoneLogin(last.accountName).catch(() => undefined);
    },
    [],
  );

  const start = useMutation({
    mutationFn: () => accountsApi.startPhoneLogin({ account_name: name.trim(), phone_number: phone.trim(), proxy: proxy.trim() || undefined }),
    onSuccess: (result) => {
      setCode('');
      dispatch({ type: 'codeSent', accountName: result.account_name, phone: phone.trim(), codeType: result.code_type });
    },
  });
  const verify = useMutation({
    mutationFn: (input: { accountName: string; code: string; password?: string }) =>
      accountsApi.verifyPhoneLogin({ account_name: input.accountName, phone_code: input.code, password: input.password }),
    onSuccess: (answer, input) => {
      dispatch({ type: 'verified', code: input.code, answer });
      if (answer.status === 'success' && answer.account) onDone(answer.account);
    },
  });

  const submit = (action: () => void) => (event: FormEvent) => {
    event.preventDefault();
    action();
  };
  const back = () => {
    start.reset();
    verify.reset();
    setPassword('');
    dispatch({ type: 'back' });
  };

  if (state.step === 'phone') {
    const ready = isAccountName(name) && isPhoneNumber(phone) && proxyOk(proxy);
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
          <TextInput
            label={t('accounts.phone')}
            description={t('accounts.phoneHint')}
            required
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            maxLength={26}
            value={phone}
            error={touched && phone !== '' && !isPhoneNumber(phone) ? t('accounts.phoneInvalid') : undefined}
            onChange={(event) => setPhone(event.currentTarget.value)}
          />
          <ProxyField value={proxy} onChange={setProxy} />
          <FormError error={start.error} />
          <Group>
            <Button type="submit" loading={start.isPending} disabled={!name.trim() || !phone.trim()}>
              {t('accounts.sendCode')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  if (state.step === 'code') {
    const codeType = (CODE_TYPES as readonly string[]).includes(state.codeType) ? state.codeType : 'other';
    return (
      <form
        onSubmit={submit(() => {
          if (isLoginCode(code)) verify.mutate({ accountName: state.accountName, code: code.trim() });
        })}
      >
        <Stack gap="sm">
          <Text size="sm">{t('accounts.codeSentTo', { phone: state.phone })}</Text>
          <TextInput
            label={t('accounts.code')}
            description={t(`accounts.codeWhere.${codeType}`)}
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            data-autofocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
          />
          <FormError error={verify.error} />
          <Group>
            <Button type="submit" loading={verify.isPending} disabled={!isLoginCode(code)}>
              {t('accounts.logIn')}
            </Button>
            <Button variant="default" onClick={back}>
              {t('accounts.otherNumber')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  if (state.step === 'password') {
    return (
      <form
        onSubmit={submit(() => {
          if (password) verify.mutate({ accountName: state.accountName, code: state.code, password });
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
          <FormError error={verify.error} />
          <Group>
            <Button type="submit" loading={verify.isPending} disabled={!password}>
              {t('accounts.logIn')}
            </Button>
            <Button variant="default" onClick={back}>
              {t('common.back')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return <Text size="sm">{t('accounts.loggedIn', { name: state.account.account_name })}</Text>;
}
