import { Button, Checkbox, Group, NativeSelect, PasswordInput, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelFormValues, EVENT_KINDS, EventKind, FORM_KINDS, SECRET_URL_KINDS, SMTP_SECURITY, SmtpSecurity, validateChannelForm } from './channel-form-values';

export interface ChannelFormProps {
  mode: 'create' | 'edit';
  initial: ChannelFormValues;
  /** The saved channel has a secret (bot token or signing secret); only ever known as "set". */
  secretSet?: boolean;
  submitting: boolean;
  onSubmit: (values: ChannelFormValues) => void;
  onCancel: () => void;
  /** What the service refused in the last submit, by form field, in the page's words (see useFieldRefusal). */
  refused?: Readonly<Record<string, string>>;
  /** A refused field was edited: its refusal goes. */
  onEdited?: (field: string) => void;
}

/** Create or edit a channel of any kind: each kind shows its own fields and is checked as the service checks it. */
export function ChannelForm({ mode, initial, secretSet = false, submitting, onSubmit, onCancel, refused = {}, onEdited }: ChannelFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState(false);
  const errors = validateChannelForm(values, mode);
  const shown = touched ? errors : {};
  const set = <K extends keyof ChannelFormValues>(key: K, value: ChannelFormValues[K]) => {
    onEdited?.(key);
    setValues((current) => ({ ...current, [key]: value }));
  };
  // The form's own check first; else what the service refused on that field.
  const error = (key: keyof typeof errors) => (shown[key] ? t(`channels.errors.${shown[key]}`) : refused[key]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length === 0) onSubmit(values);
  };

  const kind = values.kind;
  const secretUrl = SECRET_URL_KINDS.includes(kind);
  const saved = mode === 'edit' && secretSet;
  let secretHelp: string;
  if (kind === 'telegram') secretHelp = saved ? t('channels.form.tokenSaved') : t('channels.form.tokenHelp');
  else if (kind === 'http_webhook') secretHelp = mode === 'edit' ? (secretSet ? t('channels.form.secretSavedEdit') : t('channels.form.secretNotSet')) : t('channels.form.secretCreateHelp');
  else secretHelp = saved ? t('channels.form.keepSaved') : t(`channels.form.secretHelp.${kind}`);
  const secretLabel = kind === 'telegram' ? t('channels.form.botToken') : kind === 'http_webhook' ? t('channels.form.secret') : t(`channels.form.secretLabel.${kind}`);
  const urlInput = (
    <TextInput
      label={t(`channels.form.urlLabel.${kind}`)}
      description={secretUrl && mode === 'edit' ? t('channels.form.urlKeep') : t(`channels.form.urlHelpOf.${kind}`)}
      required={!(secretUrl && mode === 'edit')}
      type="url"
      autoComplete="off"
      placeholder={t(`channels.form.urlPlaceholder.${kind}`)}
      value={values.url}
      error={error('url')}
      onChange={(event) => set('url', event.currentTarget.value)}
    />
  );
  const allowPrivate = (
    <Checkbox
      label={t('channels.form.allowPrivate')}
      description={t('channels.form.allowPrivateHelp')}
      checked={values.allow_private}
      onChange={(event) => set('allow_private', event.currentTarget.checked)}
    />
  );
  const secretInput = (
    <PasswordInput
      label={secretLabel}
      description={secretHelp}
      required={mode === 'create' && (kind === 'telegram' || kind === 'gotify')}
      autoComplete="off"
      placeholder={kind === 'http_webhook' ? 'whsec_…' : kind === 'ntfy' ? 'tk_…' : undefined}
      value={values.secret}
      error={error('secret')}
      onChange={(event) => set('secret', event.currentTarget.value)}
    />
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {mode === 'create' ? (
          <NativeSelect
            label={t('channels.form.kind')}
            description={t(`channels.form.kindHelp.${kind}`)}
            value={kind}
            onChange={(event) => {
              const next = event.currentTarget.value as ChannelFormValues['kind'];
              setValues((current) => ({ ...current, kind: next, secret: '', url: '' }));
            }}
            data={FORM_KINDS.map((value) => ({ value, label: t(`channels.kind.${value}`) }))}
          />
        ) : null}
        <TextInput label={t('channels.form.name')} required maxLength={100} value={values.name} error={error('name')} onChange={(event) => set('name', event.currentTarget.value)} />
        {kind === 'telegram' ? (
          <>
            <TextInput
              label={t('channels.form.chatId')}
              description={t('channels.form.chatIdHelp')}
              required
              value={values.chat_id}
              error={error('chat_id')}
              onChange={(event) => set('chat_id', event.currentTarget.value)}
            />
            <TextInput
              label={t('channels.form.topic')}
              description={t('channels.form.topicHelp')}
              inputMode="numeric"
              value={values.message_thread_id}
              error={error('message_thread_id')}
              onChange={(event) => set('message_thread_id', event.currentTarget.value)}
            />
            {secretInput}
          </>
        ) : kind === 'email' ? (
          <>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <TextInput
                label={t('channels.form.smtpHost')}
                required
                placeholder="smtp.example.com"
                value={values.smtp_host}
                error={error('smtp_host')}
                onChange={(event) => set('smtp_host', event.currentTarget.value)}
              />
              <TextInput
                label={t('channels.form.smtpPort')}
                required
                inputMode="numeric"
                value={values.smtp_port}
                error={error('smtp_port')}
                onChange={(event) => set('smtp_port', event.currentTarget.value)}
              />
            </SimpleGrid>
            <NativeSelect
              label={t('channels.form.smtpSecurity')}
              value={values.smtp_security}
              error={error('smtp_security')}
              onChange={(event) => set('smtp_security', event.currentTarget.value as SmtpSecurity)}
              data={SMTP_SECURITY.map((value) => ({ value, label: t(`channels.form.security.${value}`) }))}
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <TextInput label={t('channels.form.smtpUsername')} autoComplete="off" value={values.smtp_username} onChange={(event) => set('smtp_username', event.currentTarget.value)} />
              {secretInput}
            </SimpleGrid>
            <TextInput
              label={t('channels.form.emailFrom')}
              required
              type="email"
              placeholder="monitor@example.com"
              value={values.email_from}
              error={error('email_from')}
              onChange={(event) => set('email_from', event.currentTarget.value)}
            />
            <Textarea
              label={t('channels.form.emailTo')}
              description={t('channels.form.emailToHelp')}
              required
              rows={2}
              value={values.email_to}
              error={error('email_to')}
              onChange={(event) => set('email_to', event.currentTarget.value)}
            />
            {allowPrivate}
          </>
        ) : (
          <>
            {urlInput}
            {allowPrivate}
            {kind === 'http_webhook' || kind === 'ntfy' || kind === 'gotify' ? secretInput : null}
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
