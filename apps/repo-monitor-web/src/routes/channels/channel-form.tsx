import { Button, Checkbox, Group, PasswordInput, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelFormValues, EVENT_KINDS, EventKind, validateChannelForm } from './channel-form-values';

export interface ChannelFormProps {
  mode: 'create' | 'edit';
  initial: ChannelFormValues;
  /** The saved channel has a secret (bot token or signing secret); only ever known as "set". */
  secretSet?: boolean;
  submitting: boolean;
  onSubmit: (values: ChannelFormValues) => void;
  onCancel: () => void;
}

/** Create or edit a channel: a Telegram chat (bot token + chat id) or a signed webhook (URL + secret). */
export function ChannelForm({ mode, initial, secretSet = false, submitting, onSubmit, onCancel }: ChannelFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState(false);
  const errors = validateChannelForm(values, mode);
  const shown = touched ? errors : {};
  const set = <K extends keyof ChannelFormValues>(key: K, value: ChannelFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));
  const error = (key: keyof typeof errors) => (shown[key] ? t(`channels.errors.${shown[key]}`) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length === 0) onSubmit(values);
  };

  const telegram = values.kind === 'telegram';
  let secretHelp: string;
  if (telegram) secretHelp = mode === 'edit' && secretSet ? t('channels.form.tokenSaved') : t('channels.form.tokenHelp');
  else secretHelp = mode === 'edit' ? (secretSet ? t('channels.form.secretSavedEdit') : t('channels.form.secretNotSet')) : t('channels.form.secretCreateHelp');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {mode === 'create' ? (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="channel-kind-label">
              {t('channels.form.kind')}
            </Text>
            <SegmentedControl
              aria-labelledby="channel-kind-label"
              fullWidth
              value={values.kind}
              onChange={(kind) => setValues((current) => ({ ...current, kind: kind as ChannelFormValues['kind'], secret: '' }))}
              data={[
                { value: 'telegram', label: t('channels.kind.telegram') },
                { value: 'http_webhook', label: t('channels.kind.http_webhook') },
              ]}
            />
          </Stack>
        ) : null}
        <TextInput label={t('channels.form.name')} required maxLength={100} value={values.name} error={error('name')} onChange={(event) => set('name', event.currentTarget.value)} />
        {telegram ? (
          <>
            <TextInput
              label={t('channels.form.chatId')}
              description={t('channels.form.chatIdHelp')}
              required
              value={values.chat_id}
              error={error('chat_id')}
              onChange={(event) => set('chat_id', event.currentTarget.value)}
            />
            <PasswordInput
              label={t('channels.form.botToken')}
              description={secretHelp}
              required={mode === 'create'}
              autoComplete="off"
              value={values.secret}
              error={error('secret')}
              onChange={(event) => set('secret', event.currentTarget.value)}
            />
          </>
        ) : (
          <>
            <TextInput
              label={t('channels.form.url')}
              description={t('channels.form.urlHelp')}
              required
              type="url"
              placeholder="https://hooks.example.com/monitor"
              value={values.url}
              error={error('url')}
              onChange={(event) => set('url', event.currentTarget.value)}
            />
            <Checkbox
              label={t('channels.form.allowPrivate')}
              description={t('channels.form.allowPrivateHelp')}
              checked={values.allow_private}
              onChange={(event) => set('allow_private', event.currentTarget.checked)}
            />
            <PasswordInput
              label={t('channels.form.secret')}
              description={secretHelp}
              autoComplete="off"
              placeholder="whsec_…"
              value={values.secret}
              error={error('secret')}
              onChange={(event) => set('secret', event.currentTarget.value)}
            />
          </>
        )}
        <Checkbox.Group label={t('channels.form.eventKinds')} description={t('channels.form.eventKindsHelp')} value={values.event_kinds} onChange={(kinds) => set('event_kinds', kinds as EventKind[])}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} verticalSpacing={6} mt={6}>
            {EVENT_KINDS.map((kind) => (
              <Checkbox key={kind} value={kind} label={t(`channels.eventKind.${kind}`)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Switch label={t('channels.form.enabled')} checked={values.enabled} onChange={(event) => set('enabled', event.currentTarget.checked)} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {mode === 'create' ? t('channels.form.create') : t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
