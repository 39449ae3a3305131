import { Alert, Badge, Box, Button, Card, Code, Group, NativeSelect, SimpleGrid, Stack, Table, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmAction, EmptyState, Page, QueryState, toast, useErrorMessage, useFieldRefusal } from '@shared/web-ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';

type Template = Schemas['NotificationTemplateDto'];
type Channel = Schemas['NotificationChannelDto'];
type Rule = Schemas['NotificationRuleDto'];

/** The event kinds a template can be for: every kind, or one family. */
export const TEMPLATE_EVENT_KINDS = [
  '*',
  'issues',
  'pull_request',
  'workflow_run',
  'release',
  'star',
  'watch',
  'dependabot_alert',
  'code_scanning_alert',
  'secret_scanning_alert',
  'pr_review',
  'digest',
  'report',
] as const;

/** Channel kinds whose messages have a title of their own (push title, email subject, a post's bold first line). */
export const TITLED_CHANNEL_KINDS: readonly string[] = ['discord', 'slack', 'teams', 'ntfy', 'bark', 'gotify', 'email'];

type Part = Template['part'];

/** `channel:<id>` or `rule:<id>`. */
type OwnerKey = string;

const ownerOf = (template: Template): OwnerKey => (template.channel_id ? `channel:${template.channel_id}` : `rule:${template.rule_id ?? ''}`);

/**
 * Message templates: a channel's (or a rule's) own text for a kind of event, edited with a live
 * preview rendered by the service on the newest recorded event of that kind, saved or reset.
 */
export function TemplatesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: ['notification-templates'], queryFn: () => unwrap(api.GET('/api/v1/notification-templates')) });
  const channels = useQuery({
    queryKey: ['notification-channels', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/notification-channels', { params: { query: { page: 1, per_page: 100 } } })),
  });
  const rules = useQuery({ queryKey: ['notification-rules'], queryFn: () => unwrap(api.GET('/api/v1/notification-rules')) });
  const [owner, setOwner] = useState<OwnerKey | null>(null);
  const [eventKind, setEventKind] = useState<string>('*');
  const [part, setPart] = useState<Part>('message');

  const channelList = channels.data?.items ?? [];
  const ruleList = rules.data?.items ?? [];
  const ownerName = (key: OwnerKey) => {
    const [type, id] = key.split(':');
    if (type === 'channel') return channelList.find((channel) => channel.id === id)?.name ?? t('templates.deletedOwner');
    return ruleList.find((rule) => rule.id === id)?.name ?? t('templates.deletedOwner');
  };
  const kindLabel = (kind: string) =>
    kind === '*' ? t('templates.everyKind') : kind === 'digest' ? t('templates.digestKind') : kind === 'report' ? t('templates.reportKind') : kind.replace(/_/g, ' ');
  // A title is offered for a channel that shows one, and for a rule (it may route to such a channel).
  const ownerHasTitle = (key: OwnerKey | null) => {
    if (!key) return false;
    const [type, id] = key.split(':');
    if (type === 'rule') return true;
    const kind = channelList.find((channel) => channel.id === id)?.kind;
    return kind !== undefined && TITLED_CHANNEL_KINDS.includes(kind);
  };
  const titleOffered = ownerHasTitle(owner);
  const shownPart: Part = titleOffered ? part : 'message';
  const ownerOptions = [
    { group: t('templates.channels'), items: channelList.map((channel) => ({ value: `channel:${channel.id}`, label: `${channel.name} (${t(`templates.kind.${channel.kind}`)})` })) },
    { group: t('templates.rules'), items: ruleList.map((rule) => ({ value: `rule:${rule.id}`, label: rule.name })) },
  ].filter((group) => group.items.length > 0);

  return (
    <Page title={t('templates.title')}>
      <Text size="sm" c="dimmed">
        {t('templates.intro', { braces: '{{title}}' })}
      </Text>
      <Card withBorder padding="md" component="section" aria-labelledby="template-editor-title">
        <Stack gap="sm">
          <Text fw={600} id="template-editor-title">
            {t('templates.editorTitle')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: titleOffered ? 3 : 2 }} spacing="sm">
            <NativeSelect
              label={t('templates.owner')}
              description={t('templates.ownerHint')}
              data={[{ value: '', label: t('templates.ownerPlaceholder') }, ...ownerOptions]}
              value={owner ?? ''}
              onChange={(event) => setOwner(event.currentTarget.value || null)}
            />
            <NativeSelect
              label={t('templates.eventKind')}
              description={t('templates.eventKindHint')}
              data={TEMPLATE_EVENT_KINDS.map((kind) => ({ value: kind, label: kindLabel(kind) }))}
              value={eventKind}
              onChange={(event) => setEventKind(event.currentTarget.value || '*')}
            />
            {titleOffered ? (
              <NativeSelect
                label={t('templates.part')}
                description={t('templates.partHint')}
                data={[
                  { value: 'message', label: t('templates.partMessage') },
                  { value: 'title', label: t('templates.partTitle') },
                ]}
                value={shownPart}
                onChange={(event) => setPart(event.currentTarget.value === 'title' ? 'title' : 'message')}
              />
            ) : null}
          </SimpleGrid>
          {owner ? (
            <TemplateEditor
              key={`${owner}|${shownPart}|${eventKind}|${templates.dataUpdatedAt}`}
              owner={owner}
              part={shownPart}
              eventKind={eventKind}
              channels={channelList}
              rules={ruleList}
              saved={templates.data?.items.find((item) => ownerOf(item) === owner && item.part === shownPart && item.event_kind === eventKind)}
              onChanged={() => void queryClient.invalidateQueries({ queryKey: ['notification-templates'] })}
            />
          ) : (
            <Text size="sm">{t('templates.pickOwner')}</Text>
          )}
        </Stack>
      </Card>
      <QueryState query={templates} isEmpty={(data) => data.total === 0} empty={<EmptyState title={t('templates.emptyTitle')} description={t('templates.emptyText')} />}>
        {(data) => (
          <Table.ScrollContainer minWidth={360}>
            <Table striped aria-label={t('templates.savedTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('templates.owner')}</Table.Th>
                  <Table.Th>{t('templates.eventKind')}</Table.Th>
                  <Table.Th>{t('templates.partColumn')}</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">{t('templates.actions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Badge variant="light" color="gray" mr={6}>
                        {item.channel_id ? t('templates.channelBadge') : t('templates.ruleBadge')}
                      </Badge>
                      {ownerName(ownerOf(item))}
                    </Table.Td>
                    <Table.Td>{kindLabel(item.event_kind)}</Table.Td>
                    <Table.Td>{item.part === 'title' ? t('templates.partTitle') : t('templates.partMessage')}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={t(item.part === 'title' ? 'templates.editTitleLabel' : 'templates.editLabel', { owner: ownerName(ownerOf(item)), kind: kindLabel(item.event_kind) })}
                        onClick={() => {
                          setOwner(ownerOf(item));
                          setEventKind(item.event_kind);
                          setPart(item.part);
                        }}
                      >
                        {t('templates.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Page>
  );
}

interface TemplateEditorProps {
  owner: OwnerKey;
  part: Part;
  eventKind: string;
  channels: Channel[];
  rules: Rule[];
  saved: Template | undefined;
  onChanged: () => void;
}

function TemplateEditor({ owner, part, eventKind, channels, rules, saved, onChanged }: TemplateEditorProps) {
  const { t } = useTranslation();
  const message = useErrorMessage();
  const refusal = useFieldRefusal();
  const [type, id] = owner.split(':') as ['channel' | 'rule', string];
  const isTitle = part === 'title';
  // A rule's template is previewed as its first channel shows it (Telegram when it routes nowhere yet;
  // a title as its first channel with a title shows it, ntfy when it has none).
  const ruleChannels = type === 'rule' ? channels.filter((channel) => rules.find((rule) => rule.id === id)?.route.channel_ids.includes(channel.id)) : [];
  const ruleKind = isTitle ? (ruleChannels.find((channel) => TITLED_CHANNEL_KINDS.includes(channel.kind))?.kind ?? 'ntfy') : (ruleChannels[0]?.kind ?? 'telegram');
  const target = { ...(type === 'channel' ? { channel_id: id } : { channel_kind: ruleKind }), ...(isTitle ? { part } : {}) };
  const [body, setBody] = useState<string | null>(saved?.body ?? null);
  const [debounced] = useDebouncedValue(body, 300);

  const preview = useQuery({
    queryKey: ['notification-template-preview', owner, part, eventKind, debounced],
    queryFn: () => unwrap(api.POST('/api/v1/notification-templates/preview', { body: { ...target, event_kind: eventKind, ...(debounced !== null ? { body: debounced } : {}) } })),
    retry: false,
    placeholderData: (previous) => previous,
  });
  // Without a saved template the editor starts from the default message, as the service writes it.
  useEffect(() => {
    if (body === null && preview.data) setBody(preview.data.default_template);
  }, [body, preview.data]);

  const save = useMutation({
    mutationFn: (text: string) =>
      unwrap(
        api.PUT('/api/v1/notification-templates', {
          body: { ...(type === 'channel' ? { channel_id: id } : { rule_id: id }), ...(isTitle ? { part } : {}), event_kind: eventKind, body: text },
        }),
      ),
    onSuccess: () => {
      refusal.reset();
      toast.success(t('templates.saved'));
      onChanged();
    },
    // A refused template is said on the template field, in the page's language; anything else as a toast.
    onError: (error) => {
      if (!refusal.refuse(error)) toast.error(error);
    },
  });
  const reset = useMutation({
    mutationFn: (template: Template) => unwrap(api.DELETE('/api/v1/notification-templates/{id}', { params: { path: { id: template.id } } })),
    onSuccess: () => {
      toast.success(t('templates.resetDone'));
      onChanged();
    },
    onError: (error) => toast.error(error),
  });
  const askReset = async () => {
    if (!saved) return;
    if (await confirmAction({ title: t('templates.resetTitle'), message: t('templates.resetMessage'), confirmLabel: t('templates.reset'), cancelLabel: t('common.cancel') })) reset.mutate(saved);
  };

  const text = body ?? '';
  const previewError = preview.isError ? message(preview.error) : undefined;
  const fieldError = refusal.errors['body'] ?? refusal.errors['part'] ?? previewError;
  const data = preview.data;
  return (
    <Stack gap="sm">
      <Textarea
        label={isTitle ? t('templates.titleBody') : t('templates.body')}
        description={
          isTitle
            ? t('templates.titleHint', { value: '{{repository}}' })
            : t('templates.bodyHint', { value: '{{title}}', list: '{{#labels}}{{.}} {{/labels}}', section: '{{#actor}}…{{/actor}}' })
        }
        rows={isTitle ? 2 : 6}
        maxLength={isTitle ? 500 : 4000}
        value={text}
        error={fieldError}
        onChange={(event) => {
          refusal.edited('body');
          setBody(event.currentTarget.value);
        }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      {data ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('templates.variables')}: {data.variables.map((name) => `{{${name}}}`).join(' ')}
        </Text>
      ) : null}
      <Stack gap={4} aria-live="polite">
        <Text size="sm" fw={600} id="template-preview-title">
          {t('templates.preview')}
        </Text>
        {data ? (
          <>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {data.event ? t('templates.previewOn', { title: data.event.title }) : t('templates.previewExample')}
              {' · '}
              {t(`templates.format.${data.format}`)}
              {' · '}
              {isTitle ? t('templates.titleLength', { length: data.length, limit: data.limit }) : t('templates.length', { length: data.length, limit: data.limit })}
              {data.whole_message || isTitle ? '' : ` · ${t('templates.underTitle')}`}
            </Text>
            {data.truncated ? (
              <Alert color="yellow" variant="light">
                {t('templates.truncated', { limit: data.limit })}
              </Alert>
            ) : null}
            <Box component="figure" m={0} aria-labelledby="template-preview-title">
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {data.rendered}
              </Code>
            </Box>
          </>
        ) : preview.isPending ? (
          <Text size="sm">{t('templates.previewLoading')}</Text>
        ) : null}
      </Stack>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" disabled={!saved} loading={reset.isPending} onClick={() => void askReset()}>
          {t('templates.reset')}
        </Button>
        <Button loading={save.isPending} disabled={text.trim() === '' || Boolean(fieldError)} onClick={() => save.mutate(text)}>
          {t('templates.save')}
        </Button>
      </Group>
      {!saved ? (
        <Text size="xs" c="dimmed">
          {t('templates.usingDefault')}
        </Text>
      ) : null}
    </Stack>
  );
}
