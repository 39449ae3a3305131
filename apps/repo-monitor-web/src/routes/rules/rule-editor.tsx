import { Button, Checkbox, Group, MultiSelect, NativeSelect, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { toast, useFieldRefusal } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { RULE_CONCLUSIONS, RULE_EVENTS, RULE_SEVERITIES, ruleFormFrom, RuleFormValues, ruleUpdateBody, TEXT_LIST_FIELDS, TextListField, validateRuleForm } from './rule-form-values';

type Rule = Schemas['NotificationRuleDto'];
type Channel = Schemas['NotificationChannelDto'];

interface RuleEditorProps {
  rule: Rule;
  channels: Channel[];
  onSaved: (rule: Rule) => void;
  onCancel: () => void;
}

/** Edits every field of a saved rule: what it matches, where it sends, quiet hours and whether it stops. */
export function RuleEditor({ rule, channels, onSaved, onCancel }: RuleEditorProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<RuleFormValues>(() => ruleFormFrom(rule));
  const [touched, setTouched] = useState(false);
  const kinds = new Map(channels.map((channel) => [channel.id, channel.kind]));
  const errors = validateRuleForm(values, kinds);
  const shown = touched ? errors : {};
  // A name the service refuses (taken by another rule) is said on the name field.
  const refusal = useFieldRefusal({}, (field) => (field === 'name' ? field : undefined));
  const error = (key: keyof typeof errors) => (shown[key] ? t(`rules.errors.${shown[key]}`) : key === 'name' ? refusal.errors['name'] : undefined);
  const set = <K extends keyof RuleFormValues>(key: K, value: RuleFormValues[K]) => {
    refusal.edited(key);
    setValues((current) => ({ ...current, [key]: value }));
  };
  const setList = (field: TextListField, text: string) => setValues((current) => ({ ...current, lists: { ...current.lists, [field]: text } }));

  const save = useMutation({
    mutationFn: (body: Schemas['UpdateNotificationRuleDto']) => unwrap(api.PATCH('/api/v1/notification-rules/{id}', { params: { path: { id: rule.id } }, body })),
    onSuccess: onSaved,
    onError: (failure) => {
      if (!refusal.refuse(failure)) toast.error(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length === 0) save.mutate(ruleUpdateBody(values));
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('rules.editTitle')}>
      <Stack gap="sm">
        <TextInput label={t('rules.name')} required maxLength={100} value={values.name} error={error('name')} onChange={(event) => set('name', event.currentTarget.value)} />
        <Text fw={600} size="sm">
          {t('rules.matchSection')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('rules.matchHint')}
        </Text>
        <MultiSelect
          label={t('rules.field.events')}
          data={RULE_EVENTS.map((value) => ({ value, label: value.replace(/_/g, ' ') }))}
          value={values.events}
          onChange={(events) => set('events', events)}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {TEXT_LIST_FIELDS.map((field) => (
            <Textarea
              key={field}
              label={t(`rules.field.${field}`)}
              description={t(`rules.fieldHint.${field}`)}
              rows={2}
              value={values.lists[field]}
              error={error(field)}
              onChange={(event) => setList(field, event.currentTarget.value)}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <MultiSelect
            label={t('rules.field.conclusions')}
            data={RULE_CONCLUSIONS.map((value) => ({ value, label: value.replace(/_/g, ' ') }))}
            value={values.conclusions}
            onChange={(conclusions) => set('conclusions', conclusions)}
            clearable
          />
          <MultiSelect
            label={t('rules.field.severities')}
            data={RULE_SEVERITIES.map((value) => ({ value, label: value }))}
            value={values.severities}
            onChange={(severities) => set('severities', severities)}
            clearable
          />
          <NativeSelect
            label={t('rules.field.draft')}
            value={values.draft}
            onChange={(event) => set('draft', event.currentTarget.value as RuleFormValues['draft'])}
            data={[
              { value: '', label: t('rules.draftAny') },
              { value: 'draft', label: t('rules.draftOnly') },
              { value: 'ready', label: t('rules.draftNot') },
            ]}
          />
          <Checkbox mt="lg" label={t('rules.field.ignore_bots')} checked={values.ignore_bots} onChange={(event) => set('ignore_bots', event.currentTarget.checked)} />
        </SimpleGrid>
        <Text fw={600} size="sm">
          {t('rules.routeSection')}
        </Text>
        <MultiSelect
          label={t('rules.channels')}
          description={t('rules.channelsHint')}
          data={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
          value={values.channel_ids}
          error={error('channel_ids')}
          onChange={(ids) => set('channel_ids', ids)}
          clearable
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('rules.topic')} description={t('rules.topicHint')} inputMode="numeric" value={values.topic} error={error('topic')} onChange={(event) => set('topic', event.currentTarget.value)} />
          <NativeSelect
            label={t('rules.mode')}
            value={values.mode}
            onChange={(event) => set('mode', event.currentTarget.value as RuleFormValues['mode'])}
            data={[
              { value: 'now', label: t('rules.modeNow') },
              { value: 'digest', label: t('rules.intoDigest') },
            ]}
          />
        </SimpleGrid>
        <Checkbox label={t('rules.quietHours')} checked={values.quiet} onChange={(event) => set('quiet', event.currentTarget.checked)} />
        {values.quiet ? (
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <TextInput label={t('rules.quietStart')} placeholder="22:00" value={values.quiet_start} error={error('quiet')} onChange={(event) => set('quiet_start', event.currentTarget.value)} />
            <TextInput label={t('rules.quietEnd')} placeholder="07:00" value={values.quiet_end} onChange={(event) => set('quiet_end', event.currentTarget.value)} />
            <NativeSelect
              label={t('rules.quietAction')}
              value={values.quiet_action}
              onChange={(event) => set('quiet_action', event.currentTarget.value as RuleFormValues['quiet_action'])}
              data={[
                { value: 'hold', label: t('rules.hold') },
                { value: 'drop', label: t('rules.drop') },
              ]}
            />
          </SimpleGrid>
        ) : null}
        <Switch label={t('rules.stopLabel')} checked={values.stop} onChange={(event) => set('stop', event.currentTarget.checked)} />
        <Switch label={t('rules.enabledLabel')} checked={values.enabled} onChange={(event) => set('enabled', event.currentTarget.checked)} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
