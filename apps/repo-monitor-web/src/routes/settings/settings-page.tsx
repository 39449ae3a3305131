import { Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Page, QueryState, toast, useUnsavedChangesGuard } from '@shared/web-ui';
import { FormEvent, ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSystemSettingsQuery } from '../../components/hooks';
import { settingsChanges, SystemSettings, timeZoneOptions, validateSettings, WEEKDAYS } from './settings-form-values';

/** General settings: time zone, digests and reports, retention, aggregation, starred user. */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useSystemSettingsQuery();
  return (
    <Page title={t('settings.title')}>
      <QueryState query={settings}>{(data) => <SettingsForm key={JSON.stringify(data)} saved={data} />}</QueryState>
    </Page>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card withBorder component="fieldset" style={{ margin: 0, minWidth: 0 }}>
      <Title order={3} size="h5" component="legend" style={{ float: 'left', width: '100%', padding: 0 }}>
        {title}
      </Title>
      {description ? (
        <Text size="xs" c="dimmed" mb="xs" style={{ clear: 'both' }}>
          {description}
        </Text>
      ) : null}
      <Stack gap="xs" style={{ clear: 'both' }}>
        {children}
      </Stack>
    </Card>
  );
}

function SettingsForm({ saved }: { saved: SystemSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SystemSettings>(saved);
  const [submitted, setSubmitted] = useState(false);
  const changes = settingsChanges(saved, values);
  const dirty = Object.keys(changes).length > 0;
  const errors = validateSettings(values);
  const zones = useMemo(() => timeZoneOptions(saved.time_zone), [saved.time_zone]);
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/v1/system/settings', { body: changes })),
    onSuccess: (next) => {
      queryClient.setQueryData(['system-settings'], next);
      toast.success(t('settings.saved'));
    },
    onError: (error) => toast.error(error),
  });
  useUnsavedChangesGuard(dirty && !save.isPending);

  const number = (value: string | number) => (typeof value === 'number' ? value : Number(value));
  const shownError = (key: keyof typeof errors) => (submitted || values !== saved) && errors[key] ? t(`settings.errors.${errors[key]}`) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length === 0 && dirty) save.mutate();
  };

  return (
    <form onSubmit={submit} aria-label={t('settings.title')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Section title={t('settings.general')}>
            <Select
              label={t('settings.timeZone')}
              description={t('settings.timeZoneHelp')}
              data={zones}
              searchable
              allowDeselect={false}
              limit={200}
              value={values.time_zone}
              onChange={(zone) => zone && setValues({ ...values, time_zone: zone })}
            />
            <TextInput
              label={t('settings.starredUser')}
              description={t('settings.starredUserHelp')}
              value={values.starred_username ?? ''}
              error={shownError('starred_username')}
              onChange={(event) => setValues({ ...values, starred_username: event.currentTarget.value })}
            />
          </Section>
          <Section title={t('settings.digests')} description={t('settings.digestsHelp')}>
            <TextInput
              label={t('settings.digestTime')}
              description={t('settings.digestTimeHelp')}
              // A text field, not type="time": the browser's time field shows AM/PM in some locales; the console is 24-hour everywhere.
              placeholder="08:00"
              inputMode="numeric"
              maxLength={5}
              value={values.digest_time}
              error={shownError('digest_time')}
              onChange={(event) => setValues({ ...values, digest_time: event.currentTarget.value })}
            />
            <Switch label={t('settings.weekly')} checked={values.weekly_report.enabled} onChange={(event) => setValues({ ...values, weekly_report: { ...values.weekly_report, enabled: event.currentTarget.checked } })} />
            <Select
              label={t('settings.weekday')}
              disabled={!values.weekly_report.enabled}
              data={WEEKDAYS.map((day) => ({ value: day, label: t(`settings.weekdays.${day}`) }))}
              allowDeselect={false}
              value={values.weekly_report.weekday}
              onChange={(day) => day && setValues({ ...values, weekly_report: { ...values.weekly_report, weekday: day as SystemSettings['weekly_report']['weekday'] } })}
            />
            <Switch label={t('settings.monthly')} checked={values.monthly_report.enabled} onChange={(event) => setValues({ ...values, monthly_report: { ...values.monthly_report, enabled: event.currentTarget.checked } })} />
            <NumberInput
              label={t('settings.monthDay')}
              description={t('settings.monthDayHelp')}
              disabled={!values.monthly_report.enabled}
              min={1}
              max={28}
              clampBehavior="strict"
              allowDecimal={false}
              value={values.monthly_report.day}
              onChange={(day) => setValues({ ...values, monthly_report: { ...values.monthly_report, day: number(day) || 1 } })}
            />
          </Section>
          <Section title={t('settings.retention')} description={t('settings.retentionHelp')}>
            {(['events_days', 'outbox_days', 'deliveries_days'] as const).map((field) => (
              <NumberInput
                key={field}
                label={t(`settings.${field}`)}
                suffix={` ${t('settings.days')}`}
                min={1}
                max={3650}
                clampBehavior="strict"
                allowDecimal={false}
                value={values.retention[field]}
                onChange={(value) => setValues({ ...values, retention: { ...values.retention, [field]: number(value) || 1 } })}
              />
            ))}
          </Section>
          <Section title={t('settings.aggregation')} description={t('settings.aggregationHelp')}>
            <NumberInput
              label={t('settings.windowSeconds')}
              description={t('settings.windowSecondsHelp')}
              suffix={` ${t('settings.seconds')}`}
              min={0}
              max={3600}
              clampBehavior="strict"
              allowDecimal={false}
              value={values.aggregation.window_seconds}
              onChange={(value) => setValues({ ...values, aggregation: { ...values.aggregation, window_seconds: number(value) || 0 } })}
            />
            <NumberInput
              label={t('settings.burstThreshold')}
              description={t('settings.burstThresholdHelp')}
              min={1}
              max={10000}
              clampBehavior="strict"
              allowDecimal={false}
              value={values.aggregation.burst_threshold}
              onChange={(value) => setValues({ ...values, aggregation: { ...values.aggregation, burst_threshold: number(value) || 1 } })}
            />
            <NumberInput
              label={t('settings.burstWindow')}
              suffix={` ${t('settings.seconds')}`}
              min={1}
              max={86400}
              clampBehavior="strict"
              allowDecimal={false}
              value={values.aggregation.burst_window_seconds}
              onChange={(value) => setValues({ ...values, aggregation: { ...values.aggregation, burst_window_seconds: number(value) || 1 } })}
            />
          </Section>
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!dirty}>
            {t('common.save')}
          </Button>
          {dirty ? (
            <Button variant="default" onClick={() => setValues(saved)}>
              {t('settings.discard')}
            </Button>
          ) : null}
          {dirty ? (
            <Text size="sm" c="dimmed" role="status">
              {t('settings.unsaved')}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
