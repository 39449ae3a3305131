import { Alert, Button, Checkbox, FileInput, Group, PasswordInput, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useUnsavedChangesGuard } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lockedInputProps } from '../../components/locked-field';
import { GithubAppFormValues, githubAppFormFrom, githubAppLocks, GithubAppSettings, githubAppUpdateBody, looksLikePem } from './github-app-form-values';

/** Largest key file read into the form (an RSA key PEM is about 1.7-3.3 KB). */
const MAX_KEY_FILE_BYTES = 16 * 1024;

export interface GithubAppFormProps {
  settings: GithubAppSettings;
  saving: boolean;
  onSave: (body: ReturnType<typeof githubAppUpdateBody>) => void;
}

/** The App's credentials: fields the environment sets are read-only and name their variable. */
export function GithubAppForm({ settings, saving, onSave }: GithubAppFormProps) {
  const { t } = useTranslation();
  const locks = githubAppLocks(settings);
  const [values, setValues] = useState<GithubAppFormValues>(() => githubAppFormFrom(settings));
  const [keySource, setKeySource] = useState<'file' | 'text'>('file');
  const [keyFile, setKeyFile] = useState<File | null>(null);
  const [keyProblem, setKeyProblem] = useState<string | null>(null);
  const body = githubAppUpdateBody(values, settings);
  const dirty = Object.keys(body).length > 0;
  useUnsavedChangesGuard(dirty && !saving);
  const set = <K extends keyof GithubAppFormValues>(key: K, value: GithubAppFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  const readKeyFile = async (file: File | null) => {
    setKeyFile(file);
    setKeyProblem(null);
    if (!file) {
      set('private_key', '');
      return;
    }
    if (file.size > MAX_KEY_FILE_BYTES) {
      setKeyProblem(t('githubApp.keyTooLarge'));
      set('private_key', '');
      return;
    }
    const text = await file.text();
    if (!looksLikePem(text)) {
      setKeyProblem(t('githubApp.keyNotPem'));
      set('private_key', '');
      return;
    }
    set('private_key', text);
  };

  const pastedProblem = keySource === 'text' && values.private_key.trim() !== '' && !looksLikePem(values.private_key) ? t('githubApp.keyNotPem') : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (keyProblem || pastedProblem) return;
    onSave(body);
  };

  return (
    <form onSubmit={submit} aria-label={t('githubApp.credentials')}>
      <Stack gap="sm">
        <TextInput label={t('githubApp.appId')} inputMode="numeric" value={values.app_id} onChange={(event) => set('app_id', event.currentTarget.value)} {...lockedInputProps(locks.app_id)} />
        <TextInput label={t('githubApp.clientId')} value={values.client_id} onChange={(event) => set('client_id', event.currentTarget.value)} {...lockedInputProps(locks.client_id)} />
        <TextInput
          label={t('githubApp.publicBaseUrl')}
          type="url"
          placeholder="https://monitor.example.com"
          value={values.public_base_url}
          onChange={(event) => set('public_base_url', event.currentTarget.value)}
          {...lockedInputProps(locks.public_base_url, t('githubApp.publicBaseUrlHelp'))}
        />
        {locks.private_key.locked ? (
          <TextInput label={t('githubApp.privateKey')} value={settings.private_key_set ? t('githubApp.setState') : t('githubApp.notSetState')} {...lockedInputProps(locks.private_key)} />
        ) : (
          <Stack gap={6}>
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={500} id="private-key-label">
                {t('githubApp.privateKey')}
              </Text>
              <Text size="xs" c="dimmed">
                {settings.private_key_set ? t('githubApp.keySaved') : t('githubApp.notSetState')}
              </Text>
            </Group>
            <SegmentedControl
              aria-labelledby="private-key-label"
              value={keySource}
              disabled={values.clear_private_key}
              onChange={(source) => {
                setKeySource(source as 'file' | 'text');
                setKeyFile(null);
                setKeyProblem(null);
                set('private_key', '');
              }}
              data={[
                { value: 'file', label: t('githubApp.keyFromFile') },
                { value: 'text', label: t('githubApp.keyFromText') },
              ]}
            />
            {keySource === 'file' ? (
              <FileInput
                label={t('githubApp.keyFile')}
                description={t('githubApp.keyFileHelp')}
                accept=".pem,application/x-pem-file,application/x-x509-ca-cert,text/plain"
                clearable
                value={keyFile}
                disabled={values.clear_private_key}
                error={keyProblem}
                onChange={(file) => void readKeyFile(file)}
              />
            ) : (
              <Textarea
                label={t('githubApp.keyText')}
                description={t('githubApp.keyTextHelp')}
                rows={5}
                spellCheck={false}
                autoComplete="off"
                placeholder="-----BEGIN RSA PRIVATE KEY-----"
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                value={values.private_key}
                disabled={values.clear_private_key}
                error={pastedProblem}
                onChange={(event) => set('private_key', event.currentTarget.value)}
              />
            )}
            {settings.private_key_set ? (
              <Checkbox size="xs" label={t('githubApp.clearKey')} checked={values.clear_private_key} onChange={(event) => set('clear_private_key', event.currentTarget.checked)} />
            ) : null}
          </Stack>
        )}
        {locks.webhook_secret.locked ? (
          <TextInput label={t('githubApp.webhookSecret')} value={settings.webhook_secret_set ? t('githubApp.setState') : t('githubApp.notSetState')} {...lockedInputProps(locks.webhook_secret)} />
        ) : (
          <Stack gap={4}>
            <PasswordInput
              label={t('githubApp.webhookSecret')}
              description={settings.webhook_secret_set ? t('githubApp.secretSaved') : t('githubApp.secretHelp')}
              autoComplete="off"
              value={values.webhook_secret}
              disabled={values.clear_webhook_secret}
              onChange={(event) => set('webhook_secret', event.currentTarget.value)}
            />
            {settings.webhook_secret_set ? (
              <Checkbox size="xs" label={t('githubApp.clearSecret')} checked={values.clear_webhook_secret} onChange={(event) => set('clear_webhook_secret', event.currentTarget.checked)} />
            ) : null}
          </Stack>
        )}
        {values.clear_private_key || values.clear_webhook_secret ? (
          <Alert color="yellow" variant="light">
            {t('githubApp.clearWarning')}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={saving} disabled={!dirty}>
            {t('common.save')}
          </Button>
          {dirty ? (
            <Button variant="default" onClick={() => setValues(githubAppFormFrom(settings))}>
              {t('githubApp.reset')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
