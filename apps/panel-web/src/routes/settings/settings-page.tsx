import { Alert, Badge, Button, Card, Checkbox, Group, Paper, Select, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { fieldProblemsOf, QueryState, toast, useFieldErrors, useFieldProblemText, useUnsavedChangesGuard } from '@shared/web-ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Schemas } from '../../api/client';
import { useSettingsQuery } from '../../components/hooks';
import { checkCodeLabel } from '../../components/codes';
import { Page } from '../../components/page';
import { KeepaliveReplicaFailures } from '../../components/replica-failures';
import { BackupsPanel } from './backups-panel';
import { ConfigTransferPanel } from './config-transfer-panel';
import { ChannelTestControls } from './channel-tests';
import { useRunDeviceKeepalive, useSaveSettings, useTestAi } from './settings-api';
import { Section, TestButton, TestResult } from './settings-parts';
import { FormBinding, IntegerField, SecretSetting, SwitchField, TextField } from './form-binding';
import { fieldValue, formProblems, formValuesOf, secretsNeededAgain, SettingsFormValues, settingsPatch, SettingsView, SMTP_SECURITY, NOTIFY_LANGUAGES } from './settings-form';

export const SETTINGS_TABS = ['general', 'telegram', 'ai', 'notifications', 'backups', 'configuration'] as const;
type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The tab that shows a setting, by its API name (to open it when the service refuses that field). */
function tabOfField(field: string): SettingsTab {
  if (field.startsWith('telegram_')) return 'telegram';
  if (field.startsWith('ai_')) return 'ai';
  if (/^(bot_|push_|webhook_)/.test(field)) return 'notifications';
  if (/^(webdav_|auto_backup_)/.test(field)) return 'backups';
  return 'general';
}

/** The service's refusal of a save, by field, with the values it judged (an edited field drops its error). */
interface Refusal {
  errors: Record<string, string>;
  values: SettingsFormValues;
}

/** Every setting of the service in tabs, one save for all of them, tests, backups and configuration transfer. */
export function SettingsPage() {
  const settings = useSettingsQuery();
  return (
    <QueryState query={settings} loadingRows={6}>
      {(view) => <SettingsForm view={view} />}
    </QueryState>
  );
}

function SettingsForm({ view }: { view: SettingsView }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: SettingsTab = (SETTINGS_TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as SettingsTab) : 'general';
  const [values, setValues] = useState<SettingsFormValues>(() => formValuesOf(view));
  const patch = useMemo(() => settingsPatch(view, values), [view, values]);
  const neededAgain = useMemo(() => secretsNeededAgain(view, values), [view, values]);
  const problems = useMemo(() => formProblems(values), [values]);
  const invalid = Object.keys(problems).length > 0 || neededAgain.length > 0;
  const dirty = Object.keys(patch).length > 0;
  useUnsavedChangesGuard(dirty);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const problemText = useFieldProblemText();
  const fieldErrors = useFieldErrors();
  const errors = useMemo(() => {
    const shown: Record<string, string> = {};
    for (const [name, issue] of Object.entries(problems)) shown[name] = problemText({ field: name, ...issue, message: '' });
    for (const [name, text] of Object.entries(refusal?.errors ?? {})) if (fieldValue(values, name) === fieldValue(refusal?.values ?? values, name)) shown[name] = text;
    return shown;
  }, [problems, refusal, values, problemText]);

  const save = useSaveSettings({
    onSuccess: (saved) => {
      setRefusal(null);
      setValues(formValuesOf(saved));
      toast.success(t('settings.saved'));
    },
    onError: (error) => {
      const fields = fieldProblemsOf(error);
      if (!fields.length) {
        toast.error(error, t('settings.saveFailed'));
        return;
      }
      // Each refused field says what to fix under itself; the tab of the first one opens.
      setRefusal({ errors: fieldErrors(error), values });
      const first = tabOfField(fields[0].field);
      if (first !== tab) setParams(first !== 'general' ? { tab: first } : {}, { replace: true });
      toast.error(new Error(t('ui:error.checkFields')), t('settings.saveFailed'));
    },
  });

  const form: FormBinding = { view, values, update: (change) => setValues((current) => change(current)), neededAgain, errors };
  return (
    <Page title={t('settings.title')}>
      {neededAgain.length > 0 ? (
        <Alert color="yellow" role="alert" title={t('settings.secret.neededAgainTitle')}>
          {neededAgain.map((name) => t(`settings.secretNames.${name}`)).join(', ')}
        </Alert>
      ) : null}
      <form
        id="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          // Enter in the import's own fields is not a request to save the settings.
          if (document.activeElement?.closest('[data-own-actions]')) return;
          if (dirty && !invalid) save.mutate(patch);
        }}
      >
        <Tabs value={tab} onChange={(next) => setParams(next && next !== 'general' ? { tab: next } : {}, { replace: true })} keepMounted={false}>
          <Tabs.List mb="md" style={{ flexWrap: 'wrap' }}>
            {SETTINGS_TABS.map((name) => (
              <Tabs.Tab key={name} value={name}>
                {t(`settings.tabs.${name}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="general">
            <GeneralTab form={form} />
          </Tabs.Panel>
          <Tabs.Panel value="telegram">
            <Section title={t('settings.telegram.title')} intro={t('settings.telegram.intro')}>
              <IntegerField form={form} name="telegram_api_id" label={t('settings.telegram.apiId')} />
              <SecretSetting form={form} name="telegram_api_hash" label={t('settings.telegram.apiHash')} />
            </Section>
          </Tabs.Panel>
          <Tabs.Panel value="ai">
            <AiTab form={form} dirty={dirty} />
          </Tabs.Panel>
          <Tabs.Panel value="notifications">
            <NotificationsTab form={form} dirty={dirty} />
          </Tabs.Panel>
          <Tabs.Panel value="backups">
            <BackupsPanel form={form} dirty={dirty} />
          </Tabs.Panel>
          <Tabs.Panel value="configuration">
            <div data-own-actions>
              <ConfigTransferPanel dirty={dirty} />
            </div>
          </Tabs.Panel>
        </Tabs>
        {dirty ? (
          // Stays in view at the bottom while the person scrolls a long tab (on a phone the page title is far away).
          <Paper withBorder shadow="md" p="sm" mt="md" pos="sticky" bottom={8} style={{ zIndex: 5 }}>
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={600} role="status">
                {t('settings.unsaved')}
              </Text>
              <Group gap="xs">
                <Button variant="default" disabled={save.isPending} onClick={() => setValues(formValuesOf(view))}>
                  {t('settings.discard')}
                </Button>
                <Button type="submit" loading={save.isPending} disabled={invalid}>
                  {t('common.save')}
                </Button>
              </Group>
            </Group>
          </Paper>
        ) : null}
      </form>
    </Page>
  );
}

function timeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return supported.includes('UTC') ? supported : ['UTC', ...supported];
}

function GeneralTab({ form }: { form: FormBinding }) {
  const { t } = useTranslation();
  const zones = useMemo(timeZones, []);
  const [force, setForce] = useState(false);
  const keepalive = useRunDeviceKeepalive({
    onSuccess: (result) => toast.success(t('settings.keepalive.done', { woken: result.woken, failed: result.failed, skipped: result.skipped })),
    onError: (error) => toast.error(error),
  });
  return (
    <>
      <Section title={t('settings.general.timezone')} intro={t('settings.general.timezoneIntro')}>
        <Select
          label={t('settings.general.timezone')}
          searchable
          allowDeselect={false}
          data={zones.includes(form.values.text.timezone) ? zones : [form.values.text.timezone, ...zones]}
          value={form.values.text.timezone}
          nothingFoundMessage={t('settings.general.noZone')}
          error={form.errors['timezone']}
          onChange={(zone) => zone && form.update((values) => ({ ...values, text: { ...values.text, timezone: zone } }))}
        />
      </Section>
      <Section
        title={t('settings.keepalive.title')}
        intro={t('settings.keepalive.intro')}
        actions={
          <Stack gap="xs">
            <Checkbox label={t('settings.keepalive.force')} checked={force} onChange={(event) => setForce(event.currentTarget.checked)} />
            <Group>
              <TestButton label={t('settings.keepalive.run')} dirty={false} loading={keepalive.isPending} onClick={() => keepalive.mutate(force)} />
            </Group>
          </Stack>
        }
      >
        <SwitchField form={form} name="device_keepalive_enabled" label={t('settings.keepalive.enabled')} />
        <IntegerField form={form} name="device_keepalive_interval_days" label={t('settings.keepalive.interval')} description={t('settings.keepalive.intervalHint')} />
              </Section>
      <Section title={t('settings.safety.title')} intro={t('settings.safety.intro')}>
        <IntegerField form={form} name="safety_min_spacing_seconds" label={t('settings.safety.spacing')} description={t('settings.safety.spacingHint')} />
        <IntegerField form={form} name="safety_per_minute" label={t('settings.safety.perMinute')} />
        <IntegerField form={form} name="safety_per_day" label={t('settings.safety.perDay')} />
        <IntegerField form={form} name="safety_jitter_ms" label={t('settings.safety.jitter')} description={t('settings.safety.jitterHint')} />
        <IntegerField form={form} name="safety_flood_pause_seconds" label={t('settings.safety.floodPause')} description={t('settings.safety.floodPauseHint')} />
      </Section>
      {keepalive.data ? <KeepaliveResult result={keepalive.data} /> : null}
    </>
  );
}

function KeepaliveResult({ result }: { result: Schemas['KeepaliveRunResultDto'] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder mb="md" aria-live="polite">
      <Text size="sm" fw={600} mb="xs">
        {t('settings.keepalive.done', { woken: result.woken, failed: result.failed, skipped: result.skipped })}
      </Text>
      <KeepaliveReplicaFailures failures={result.failures} />
      {result.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('settings.keepalive.noAccounts')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={0}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.keepalive.account')}</Table.Th>
                <Table.Th>{t('settings.keepalive.outcome')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.results.map((row) => (
                <Table.Tr key={row.account_name}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.account_name}</Table.Td>
                  <Table.Td>
                    <Badge color={row.outcome === 'woken' ? 'teal' : row.outcome === 'failed' ? 'red' : 'gray'} variant="light">
                      {t(`settings.keepalive.outcomes.${row.outcome}`)}
                    </Badge>
                    {row.outcome === 'failed' && (row.code || row.message) ? (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {row.code ? checkCodeLabel(t, row.code) : row.message}
                      </Text>
                    ) : row.outcome === 'skipped_not_due' ? (
                      <Text size="xs" c="dimmed">
                        {t('panel.keepalive.skipped_not_due')}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function AiTab({ form, dirty }: { form: FormBinding; dirty: boolean }) {
  const { t } = useTranslation();
  const test = useTestAi({ onError: (error) => toast.error(error) });
  return (
    <Section
      title={t('settings.ai.title')}
      intro={t('settings.ai.intro')}
      actions={<TestButton label={t('settings.ai.test')} dirty={dirty} loading={test.isPending} onClick={() => test.mutate()} disabled={!form.view.ai_model || !form.view.ai_api_key_set} />}
    >
      <TextField form={form} name="ai_base_url" label={t('settings.ai.baseUrl')} description={t('settings.ai.baseUrlHint')} placeholder="https://api.openai.com/v1" inputMode="url" />
      <TextField form={form} name="ai_model" label={t('settings.ai.model')} placeholder="gpt-4o-mini" />
      <SecretSetting form={form} name="ai_api_key" label={t('settings.ai.apiKey')} />
      {test.data ? (
        <TestResult ok={test.data.ok} title={test.data.ok ? t('settings.ai.ok', { ms: test.data.latency_ms }) : t(`settings.ai.failure.${test.data.error_kind ?? 'error'}`)}>
          {test.data.ok ? t('settings.ai.answer', { answer: test.data.answer ?? '' }) : test.data.error}
        </TestResult>
      ) : null}
    </Section>
  );
}

const NOTICES = ['task_failure', 'task_success', 'session_invalid', 'backup_failure', 'admin_login'] as const;

function NotificationsTab({ form, dirty }: { form: FormBinding; dirty: boolean }) {
  const { t } = useTranslation();
  const view = form.view;
  return (
    <>
      <Section title={t('settings.notifyLanguage.title')} intro={t('settings.notifyLanguage.intro')}>
        <Select
          label={t('settings.notifyLanguage.label')}
          allowDeselect={false}
          data={NOTIFY_LANGUAGES.map((value) => ({ value, label: t(`settings.notifyLanguage.options.${value}`) }))}
          value={form.values.text.notify_language}
          error={form.errors['notify_language']}
          onChange={(value) => form.update((values) => ({ ...values, text: { ...values.text, notify_language: value ?? 'en' } }))}
        />
      </Section>
      <Section
        title={t('settings.bot.title')}
        intro={t('settings.bot.intro')}
        actions={<ChannelTestControls channel="bot" label={t('settings.bot.test')} dirty={dirty} configured={view.bot_token_set && !!view.bot_chat_id} />}
      >
        <SecretSetting form={form} name="bot_token" label={t('settings.bot.token')} description={t('settings.bot.tokenHint')} />
        <TextField form={form} name="bot_chat_id" label={t('settings.bot.chatId')} description={t('settings.bot.chatIdHint')} />
        <SwitchField form={form} name="bot_notify_enabled" label={t('settings.bot.enabled')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {NOTICES.map((notice) => (
            <SwitchField key={notice} form={form} name={`bot_notify_${notice}`} label={t(`settings.notices.${notice}`)} />
          ))}
        </SimpleGrid>
      </Section>
      <Section title={t('settings.push.bark')} intro={t('settings.push.barkIntro')} actions={<ChannelTestControls channel="bark" label={t('settings.channelTest.send')} dirty={dirty} configured={view.push_bark_url_set} />}>
        <SecretSetting form={form} name="push_bark_url" label={t('settings.push.bark')} description={t('settings.push.barkHint')} />
      </Section>
      <Section
        title={t('settings.push.serverChanTitle')}
        intro={t('settings.push.serverChanIntro')}
        actions={<ChannelTestControls channel="server_chan" label={t('settings.channelTest.send')} dirty={dirty} configured={view.push_server_chan_key_set} />}
      >
        <SecretSetting form={form} name="push_server_chan_key" label={t('settings.push.serverChan')} />
      </Section>
      <Section title={t('settings.push.ntfyTitle')} intro={t('settings.push.ntfyIntro')} actions={<ChannelTestControls channel="ntfy" label={t('settings.channelTest.send')} dirty={dirty} configured={!!view.push_ntfy_url} />}>
        <TextField form={form} name="push_ntfy_url" label={t('settings.push.ntfyUrl')} placeholder="https://ntfy.sh/my-topic" inputMode="url" />
        <SecretSetting form={form} name="push_ntfy_token" label={t('settings.push.ntfyToken')} />
      </Section>
      <Section
        title={t('settings.push.discordTitle')}
        intro={t('settings.push.discordIntro')}
        actions={<ChannelTestControls channel="discord" label={t('settings.channelTest.send')} dirty={dirty} configured={view.push_discord_url_set} />}
      >
        <SecretSetting form={form} name="push_discord_url" label={t('settings.push.discordUrl')} description={t('settings.push.webhookUrlSecretHint')} />
      </Section>
      <Section
        title={t('settings.push.slackTitle')}
        intro={t('settings.push.slackIntro')}
        actions={<ChannelTestControls channel="slack" label={t('settings.channelTest.send')} dirty={dirty} configured={view.push_slack_url_set} />}
      >
        <SecretSetting form={form} name="push_slack_url" label={t('settings.push.slackUrl')} description={t('settings.push.webhookUrlSecretHint')} />
      </Section>
      <Section
        title={t('settings.push.teamsTitle')}
        intro={t('settings.push.teamsIntro')}
        actions={<ChannelTestControls channel="teams" label={t('settings.channelTest.send')} dirty={dirty} configured={view.push_teams_url_set} />}
      >
        <SecretSetting form={form} name="push_teams_url" label={t('settings.push.teamsUrl')} description={t('settings.push.webhookUrlSecretHint')} />
      </Section>
      <Section
        title={t('settings.push.gotifyTitle')}
        intro={t('settings.push.gotifyIntro')}
        actions={<ChannelTestControls channel="gotify" label={t('settings.channelTest.send')} dirty={dirty} configured={!!view.push_gotify_url && view.push_gotify_token_set} />}
      >
        <TextField form={form} name="push_gotify_url" label={t('settings.push.gotifyUrl')} placeholder="https://gotify.example.org" inputMode="url" />
        <SecretSetting form={form} name="push_gotify_token" label={t('settings.push.gotifyToken')} />
      </Section>
      <Section
        title={t('settings.push.emailTitle')}
        intro={t('settings.push.emailIntro')}
        actions={<ChannelTestControls channel="email" label={t('settings.channelTest.send')} dirty={dirty} configured={!!view.push_email_smtp_host && !!view.push_email_from && !!view.push_email_to} />}
      >
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          <TextField form={form} name="push_email_smtp_host" label={t('settings.push.smtpHost')} placeholder="smtp.example.org" />
          <IntegerField form={form} name="push_email_smtp_port" label={t('settings.push.smtpPort')} />
          <Select
            label={t('settings.push.smtpSecurity')}
            allowDeselect={false}
            data={SMTP_SECURITY.map((value) => ({ value, label: t(`settings.push.smtpSecurities.${value}`) }))}
            value={form.values.text.push_email_smtp_security}
            error={form.errors['push_email_smtp_security']}
            onChange={(value) => form.update((values) => ({ ...values, text: { ...values.text, push_email_smtp_security: value ?? 'starttls' } }))}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <TextField form={form} name="push_email_smtp_username" label={t('settings.push.smtpUsername')} />
          <SecretSetting form={form} name="push_email_smtp_password" label={t('settings.push.smtpPassword')} />
        </SimpleGrid>
        <TextField form={form} name="push_email_from" label={t('settings.push.emailFrom')} placeholder="Sign Panel <panel@example.org>" />
        <TextField form={form} name="push_email_to" label={t('settings.push.emailTo')} description={t('settings.push.emailToHint')} placeholder="ops@example.org, me@example.org" />
      </Section>
      <Section
        title={t('settings.push.webhookTitle')}
        intro={t('settings.push.webhookIntro')}
        actions={<ChannelTestControls channel="custom_webhook" label={t('settings.channelTest.send')} dirty={dirty} configured={!!view.webhook_url && view.webhook_secret_set} />}
      >
        <TextField form={form} name="webhook_url" label={t('settings.push.webhookUrl')} inputMode="url" />
        <SecretSetting form={form} name="webhook_secret" label={t('settings.push.webhookSecret')} description={t('settings.push.webhookSecretHint')} />
      </Section>
      <Section title={t('settings.push.which')} intro={t('settings.push.intro')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {NOTICES.map((notice) => (
            <SwitchField key={notice} form={form} name={`push_notify_${notice}`} label={t(`settings.notices.${notice}`)} />
          ))}
        </SimpleGrid>
      </Section>
    </>
  );
}
