import { Alert, Button, Checkbox, Group, NumberInput, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { toast, useUnsavedChangesGuard } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { lockedInputProps, LockNote } from '../../components/locked-field';
import { AI_FEATURES, aiFormFrom, AiFormValues, aiLocks, AiSettings, aiTestBody, aiUpdateBody } from './ai-form-values';

export interface AiSettingsFormProps {
  settings: AiSettings;
  saving: boolean;
  onSave: (body: Schemas['UpdateAiSettingsDto']) => void;
}

/** AI connection and features; environment-set fields are read-only; the test tries unsaved values. */
export function AiSettingsForm({ settings, saving, onSave }: AiSettingsFormProps) {
  const { t } = useTranslation();
  const locks = aiLocks(settings);
  const [values, setValues] = useState<AiFormValues>(() => aiFormFrom(settings));
  const body = aiUpdateBody(values, settings);
  const dirty = Object.keys(body).length > 0;
  useUnsavedChangesGuard(dirty && !saving);
  const set = <K extends keyof AiFormValues>(key: K, value: AiFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/ai/test', { body: aiTestBody(values, settings) })),
    onError: (error) => toast.error(error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dirty) onSave(body);
  };
  const keyHelp = settings.api_key_set ? t('ai.keySaved') : t('ai.keyNotSet');

  return (
    <form onSubmit={submit} aria-label={t('ai.connection')}>
      <Stack gap="sm">
        <Switch label={t('ai.enabled')} checked={values.enabled} disabled={locks.enabled.locked} description={<LockNote lock={locks.enabled} />} onChange={(event) => set('enabled', event.currentTarget.checked)} />
        {locks.api_key.locked ? (
          <TextInput label={t('ai.apiKey')} value={settings.api_key_set ? t('ai.setState') : t('ai.notSetState')} {...lockedInputProps(locks.api_key)} />
        ) : (
          <Stack gap={4}>
            <PasswordInput label={t('ai.apiKey')} description={keyHelp} autoComplete="off" value={values.api_key} disabled={values.clear_api_key} onChange={(event) => set('api_key', event.currentTarget.value)} />
            {settings.api_key_set ? <Checkbox size="xs" label={t('ai.clearKey')} checked={values.clear_api_key} onChange={(event) => set('clear_api_key', event.currentTarget.checked)} /> : null}
          </Stack>
        )}
        <TextInput label={t('ai.baseUrl')} type="url" value={values.base_url} onChange={(event) => set('base_url', event.currentTarget.value)} {...lockedInputProps(locks.base_url, t('ai.baseUrlHelp'))} />
        <TextInput label={t('ai.model')} value={values.model} onChange={(event) => set('model', event.currentTarget.value)} {...lockedInputProps(locks.model)} />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
          <TextInput label={t('ai.timeout')} value={values.timeout} onChange={(event) => set('timeout', event.currentTarget.value)} {...lockedInputProps(locks.timeout, t('ai.timeoutHelp'))} />
          <NumberInput label={t('ai.maxTokens')} min={16} max={32000} allowDecimal={false} clampBehavior="strict" value={values.max_tokens} onChange={(value) => set('max_tokens', Number(value) || 16)} {...lockedInputProps(locks.max_tokens)} />
          <NumberInput label={t('ai.retries')} min={0} max={5} allowDecimal={false} clampBehavior="strict" value={values.retries} onChange={(value) => set('retries', Number(value) || 0)} {...lockedInputProps(locks.retries)} />
        </SimpleGrid>
        <Title order={4} size="h6" mt="xs">
          {t('ai.features')}
        </Title>
        {AI_FEATURES.map((feature) => (
          <Switch
            key={feature}
            label={t(`ai.feature.${feature}`)}
            checked={values[feature]}
            disabled={locks[feature].locked}
            description={<LockNote lock={locks[feature]} />}
            onChange={(event) => set(feature, event.currentTarget.checked)}
          />
        ))}
        <Group>
          <Button type="submit" loading={saving} disabled={!dirty}>
            {t('common.save')}
          </Button>
          <Button variant="light" loading={test.isPending} onClick={() => test.mutate()}>
            {t('ai.test')}
          </Button>
          {dirty ? (
            <Button variant="default" onClick={() => setValues(aiFormFrom(settings))}>
              {t('ai.reset')}
            </Button>
          ) : null}
        </Group>
        {test.isPending ? (
          <Text size="sm" c="dimmed" role="status">
            {t('ai.testing')}
          </Text>
        ) : test.data ? (
          <AiTestResult result={test.data} />
        ) : null}
      </Stack>
    </form>
  );
}

export function AiTestResult({ result }: { result: Schemas['AiTestResultDto'] }) {
  const { t } = useTranslation();
  return (
    <Alert role="status" color={result.ok ? 'teal' : 'red'} variant="light" title={result.ok ? t('ai.testOk') : t('ai.testFailed', { reason: result.error_code ? t(`ai.testError.${result.error_code}`) : '' })}>
      <Stack gap={4}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('ai.testDetails', { ms: result.elapsed_ms, model: result.model, url: result.base_url })}
        </Text>
        {result.ok && result.reply ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {t('ai.testReply')} {result.reply}
          </Text>
        ) : null}
        {!result.ok && result.message ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {result.message}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
