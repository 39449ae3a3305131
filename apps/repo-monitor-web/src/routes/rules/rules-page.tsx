import { ActionIcon, Badge, Button, Card, Group, Modal, NumberInput, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmAction, EmptyState, Page, QueryState, toast, useFieldRefusal } from '@shared/web-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useRoutingWords } from '../events/routing-words';
import { RuleEditor } from './rule-editor';
import { RULE_TEMPLATES, RuleTemplateId, ruleFromTemplate } from './rule-templates';

type Rule = Schemas['NotificationRuleDto'];
type Channel = Schemas['NotificationChannelDto'];
type DryRunItem = Schemas['DryRunEventDto'];

/** Routing rules: the list in order (enable, move, delete), new rules from templates with a dry run. */
export function RulesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ['notification-rules'], queryFn: () => unwrap(api.GET('/api/v1/notification-rules')) });
  const channels = useQuery({
    queryKey: ['notification-channels', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/notification-channels', { params: { query: { page: 1, per_page: 100 } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notification-rules'] });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Rule | null>(null);

  const toggle = useMutation({
    mutationFn: (rule: Rule) => unwrap(api.PATCH('/api/v1/notification-rules/{id}', { params: { path: { id: rule.id } }, body: { enabled: !rule.enabled } })),
    onSuccess: (rule) => {
      toast.success(rule.enabled ? t('rules.enabledToast', { name: rule.name }) : t('rules.disabledToast', { name: rule.name }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });
  const reorder = useMutation({
    mutationFn: (ids: string[]) => unwrap(api.POST('/api/v1/notification-rules/reorder', { body: { ids } })),
    onSuccess: () => {
      toast.success(t('rules.moved'));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });
  const remove = useMutation({
    mutationFn: (rule: Rule) => unwrap(api.DELETE('/api/v1/notification-rules/{id}', { params: { path: { id: rule.id } } })),
    onSuccess: (_, rule) => {
      toast.success(t('rules.deleted', { name: rule.name }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });
  const askDelete = async (rule: Rule) => {
    if (await confirmAction({ title: t('rules.deleteTitle'), message: t('rules.deleteMessage', { name: rule.name }), confirmLabel: t('common.delete'), cancelLabel: t('common.cancel') })) remove.mutate(rule);
  };
  const move = (list: Rule[], index: number, by: -1 | 1) => {
    const ids = list.map((rule) => rule.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved);
    reorder.mutate(ids);
  };

  const channelName = (id: string) => channels.data?.items.find((channel) => channel.id === id)?.name ?? t('rules.deletedChannel');
  const add = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      {t('rules.add')}
    </Button>
  );

  return (
    <Page title={t('rules.title')} actions={add}>
      <Text size="sm" c="dimmed">
        {t('rules.intro')}
      </Text>
      <QueryState query={rules} isEmpty={(data) => data.total === 0} empty={<EmptyState title={t('rules.emptyTitle')} description={t('rules.emptyText')} />}>
        {(data) => (
          <Stack gap="sm">
            {data.items.map((rule, index) => (
              <Card key={rule.id} withBorder padding="md" component="article" aria-label={rule.name}>
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Badge variant="light" color="gray">
                        {t('rules.position', { position: index + 1 })}
                      </Badge>
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {rule.name}
                      </Text>
                      {rule.stop ? <Badge variant="outline">{t('rules.stops')}</Badge> : null}
                    </Group>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {t('rules.matches')}: {matchSummary(rule) || t('rules.matchesAll')}
                    </Text>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {t('rules.sendsTo')}: {routeSummary(rule, channelName, t)}
                    </Text>
                  </Stack>
                  <Switch
                    checked={rule.enabled}
                    onChange={() => toggle.mutate(rule)}
                    disabled={toggle.isPending && toggle.variables?.id === rule.id}
                    aria-label={t('rules.toggleLabel', { name: rule.name })}
                  />
                </Group>
                <Group gap="xs" mt="sm" justify="flex-end">
                  <ActionIcon variant="default" size="lg" aria-label={t('rules.moveUp', { name: rule.name })} disabled={index === 0 || reorder.isPending} onClick={() => move(data.items, index, -1)}>
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={t('rules.moveDown', { name: rule.name })}
                    disabled={index === data.items.length - 1 || reorder.isPending}
                    onClick={() => move(data.items, index, 1)}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon variant="default" size="lg" aria-label={t('rules.editLabel', { name: rule.name })} onClick={() => setEditing(rule)}>
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon variant="default" size="lg" color="red" aria-label={t('rules.deleteLabel', { name: rule.name })} onClick={() => void askDelete(rule)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('rules.editTitle')} size="xl">
        {editing ? (
          <RuleEditor
            rule={editing}
            channels={channels.data?.items ?? []}
            onCancel={() => setEditing(null)}
            onSaved={(rule) => {
              toast.success(t('rules.saved', { name: rule.name }));
              setEditing(null);
              void refresh();
            }}
          />
        ) : null}
      </Modal>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('rules.createTitle')} size="lg">
        {creating ? (
          <RuleFromTemplate
            channels={channels.data?.items ?? []}
            existing={rules.data?.items ?? []}
            onCreated={(rule) => {
              toast.success(t('rules.created', { name: rule.name }));
              setCreating(false);
              void refresh();
            }}
          />
        ) : null}
      </Modal>
    </Page>
  );
}

function matchSummary(rule: Rule): string {
  return Object.entries(rule.match)
    .filter(([, value]) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0))
    .map(([field, value]) => `${field} ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}

function routeSummary(rule: Rule, channelName: (id: string) => string, t: (key: string, options?: Record<string, unknown>) => string): string {
  const route = rule.route;
  if (route.channel_ids.length === 0) return t('rules.nowhere');
  const parts = [route.channel_ids.map(channelName).join(', ')];
  if (route.message_thread_id !== null) parts.push(t('rules.topicOf', { topic: route.message_thread_id }));
  if (route.mode === 'digest') parts.push(t('rules.intoDigest'));
  if (route.quiet_hours) parts.push(t('rules.quiet', { start: route.quiet_hours.start, end: route.quiet_hours.end, action: t(`rules.${route.quiet_hours.action}`) }));
  return parts.join(' · ');
}

interface RuleFromTemplateProps {
  channels: Channel[];
  existing: Rule[];
  onCreated: (rule: Rule) => void;
}

/** Picks a template, names the rule, chooses its channel and topic; tries it on the last events before creating it. */
function RuleFromTemplate({ channels, existing, onCreated }: RuleFromTemplateProps) {
  const { t } = useTranslation();
  const [templateId, setTemplateId] = useState<RuleTemplateId>('muteDependabot');
  const [name, setName] = useState<string>(t('rules.templates.muteDependabot'));
  const [channelId, setChannelId] = useState<string | null>(null);
  const [topic, setTopic] = useState<number | string>('');
  const [errors, setErrors] = useState<{ name?: string; channel?: string; topic?: string }>({});
  const template = RULE_TEMPLATES[templateId];

  const body = (): Schemas['CreateNotificationRuleDto'] | undefined => {
    const found: typeof errors = {};
    if (name.trim() === '') found.name = t('rules.nameRequired');
    if (template.needsChannel && !channelId) found.channel = t('rules.channelRequired');
    const topicId = topic === '' ? null : Number(topic);
    if (topicId !== null && (!Number.isInteger(topicId) || topicId < 1)) found.topic = t('rules.topicInvalid');
    setErrors(found);
    if (Object.keys(found).length > 0) return undefined;
    return ruleFromTemplate(templateId, name.trim(), channelId, topicId);
  };

  // A name the service refuses (taken by another rule) is said on the name field.
  const refusal = useFieldRefusal({}, (field) => (field === 'name' ? field : undefined));
  const create = useMutation({
    mutationFn: (rule: Schemas['CreateNotificationRuleDto']) => unwrap(api.POST('/api/v1/notification-rules', { body: rule })),
    onSuccess: onCreated,
    onError: (error) => {
      if (!refusal.refuse(error)) toast.error(error);
    },
  });
  const dryRun = useMutation({
    mutationFn: (rule: Schemas['CreateNotificationRuleDto']) =>
      unwrap(
        api.POST('/api/v1/notification-rules/dry-run', {
          body: { rules: [...existing.map(({ id, name: ruleName, enabled, match, route, stop }) => ({ id, name: ruleName, enabled, match, route, stop })), rule] },
        }),
      ),
    onError: (error) => toast.error(error),
  });

  const selected = channels.find((channel) => channel.id === channelId);
  return (
    <Stack gap="sm">
      <Select
        label={t('rules.template')}
        data={(Object.keys(RULE_TEMPLATES) as RuleTemplateId[]).map((id) => ({ value: id, label: t(`rules.templates.${id}`) }))}
        value={templateId}
        allowDeselect={false}
        onChange={(value) => {
          if (!value) return;
          setTemplateId(value as RuleTemplateId);
          setName(t(`rules.templates.${value}`));
          refusal.edited('name');
          dryRun.reset();
        }}
      />
      <TextInput
        label={t('rules.name')}
        value={name}
        onChange={(event) => {
          refusal.edited('name');
          setName(event.currentTarget.value);
        }}
        error={errors.name ?? refusal.errors['name']}
        maxLength={100}
        required
      />
      {template.needsChannel ? (
        <Select
          label={t('rules.channel')}
          description={t('rules.channelHint')}
          data={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
          value={channelId}
          onChange={setChannelId}
          error={errors.channel}
          required
        />
      ) : null}
      {template.needsChannel && selected?.kind === 'telegram' ? (
        <NumberInput label={t('rules.topic')} description={t('rules.topicHint')} value={topic} onChange={setTopic} min={1} allowDecimal={false} error={errors.topic} />
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          loading={dryRun.isPending}
          onClick={() => {
            const rule = body();
            if (rule) dryRun.mutate(rule);
          }}
        >
          {t('rules.dryRun')}
        </Button>
        <Button
          loading={create.isPending}
          onClick={() => {
            const rule = body();
            if (rule) create.mutate(rule);
          }}
        >
          {t('rules.create')}
        </Button>
      </Group>
      {dryRun.data ? <DryRunTable items={dryRun.data.items} /> : null}
    </Stack>
  );
}

function DryRunTable({ items }: { items: DryRunItem[] }) {
  const { t } = useTranslation();
  const words = useRoutingWords();
  if (items.length === 0) return <Text size="sm">{t('rules.dryRunEmpty')}</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {t('rules.dryRunTitle', { count: items.length })}
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('rules.event')}</Table.Th>
              <Table.Th>{t('rules.wouldGo')}</Table.Th>
              <Table.Th>{t('rules.went')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.event_id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.title}</Table.Td>
                <Table.Td>{words.summary(item)}</Table.Td>
                <Table.Td>{words.summary(item.recorded)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
