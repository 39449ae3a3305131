import { Alert, Badge, Button, Card, Group, Modal, Pagination, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmAction, EmptyState, formatDateTime, Page, QueryState, toast, useFieldRefusal } from '@shared/web-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { ChannelForm } from './channel-form';
import { Channel, CHANNEL_FORM_FIELDS, channelFormFrom, ChannelFormValues, createChannelBody, emptyChannelForm, updateChannelBody } from './channel-form-values';
import { SecretOnceModal } from './secret-once';

const PER_PAGE = 24;
type TestResult = Schemas['ChannelTestResultDto'];

/** Notification channels of every kind (Telegram, signed webhook, Discord, Slack, Teams, ntfy, Gotify, Bark, email), each with its own test. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const refusal = useFieldRefusal({}, (field) => ((CHANNEL_FORM_FIELDS as readonly string[]).includes(field) ? field : undefined));
  const channels = useQuery({
    queryKey: ['notification-channels', page],
    queryFn: () => unwrap(api.GET('/api/v1/notification-channels', { params: { query: { page, per_page: PER_PAGE } } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notification-channels'] });

  const [editing, setEditingNow] = useState<{ mode: 'create' } | { mode: 'edit'; channel: Channel } | null>(null);
  // Opening or closing the form forgets the last refusal.
  const setEditing = (next: { mode: 'create' } | { mode: 'edit'; channel: Channel } | null) => {
    refusal.reset();
    setEditingNow(next);
  };
  const [shownSecret, setShownSecret] = useState<{ secret: string; name: string } | null>(null);
  const [results, setResults] = useState<Record<string, TestResult>>({});

  const save = useMutation({
    mutationFn: async (values: ChannelFormValues) => {
      if (editing?.mode === 'edit') return unwrap(api.PATCH('/api/v1/notification-channels/{id}', { params: { path: { id: editing.channel.id } }, body: updateChannelBody(values) }));
      return unwrap(api.POST('/api/v1/notification-channels', { body: createChannelBody(values) }));
    },
    onSuccess: (channel) => {
      toast.success(editing?.mode === 'edit' ? t('channels.saved', { name: channel.name }) : t('channels.created', { name: channel.name }));
      if ('secret' in channel && typeof channel.secret === 'string') setShownSecret({ secret: channel.secret, name: channel.name });
      setEditing(null);
      void refresh();
    },
    // A refusal that names a field of the form is said on that field; anything else as a toast.
    onError: (error) => {
      if (!refusal.refuse(error)) toast.error(error);
    },
  });

  const toggle = useMutation({
    mutationFn: (channel: Channel) => unwrap(api.POST('/api/v1/notification-channels/{id}/toggle', { params: { path: { id: channel.id } }, body: { enabled: !channel.enabled } })),
    onSuccess: (channel) => {
      toast.success(channel.enabled ? t('channels.enabledToast', { name: channel.name }) : t('channels.disabledToast', { name: channel.name }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });

  const test = useMutation({
    mutationFn: (channel: Channel) => unwrap(api.POST('/api/v1/notification-channels/{id}/test', { params: { path: { id: channel.id } } })),
    onSuccess: (result, channel) => {
      setResults((current) => ({ ...current, [channel.id]: result }));
      void refresh();
      if (result.ok) toast.success(t('channels.test.passedToast', { name: channel.name }));
      else toast.error(new Error(t('channels.test.failedToast', { name: channel.name })));
    },
    onError: (error) => toast.error(error),
  });

  const rotate = useMutation({
    mutationFn: (channel: Channel) => unwrap(api.POST('/api/v1/notification-channels/{id}/rotate-secret', { params: { path: { id: channel.id } } })),
    onSuccess: (channel) => {
      if (channel.secret) setShownSecret({ secret: channel.secret, name: channel.name });
      toast.success(t('channels.rotated', { name: channel.name }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });

  const remove = useMutation({
    mutationFn: (channel: Channel) => unwrap(api.DELETE('/api/v1/notification-channels/{id}', { params: { path: { id: channel.id } } })),
    onSuccess: (_, channel) => {
      toast.success(t('channels.deleted', { name: channel.name }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });

  const askRotate = async (channel: Channel) => {
    if (await confirmAction({ title: t('channels.rotateTitle'), message: t('channels.rotateMessage', { name: channel.name }), confirmLabel: t('channels.rotate'), cancelLabel: t('common.cancel') })) rotate.mutate(channel);
  };
  const askDelete = async (channel: Channel) => {
    if (await confirmAction({ title: t('channels.deleteTitle'), message: t('channels.deleteMessage', { name: channel.name }), confirmLabel: t('common.delete'), cancelLabel: t('common.cancel') })) remove.mutate(channel);
  };

  const add = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ mode: 'create' })}>
      {t('channels.add')}
    </Button>
  );

  return (
    <Page title={t('channels.title')} actions={add}>
      <Text size="sm" c="dimmed">
        {t('channels.intro')}
      </Text>
      <QueryState query={channels} isEmpty={(data) => data.total === 0} empty={<EmptyState title={t('channels.emptyTitle')} description={t('channels.emptyText')} />}>
        {(data) => (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              {data.items.map((channel) => (
                <ChannelCard
                  key={channel.id}
                  channel={channel}
                  result={results[channel.id]}
                  testing={test.isPending && test.variables?.id === channel.id}
                  toggling={toggle.isPending && toggle.variables?.id === channel.id}
                  onTest={() => test.mutate(channel)}
                  onToggle={() => toggle.mutate(channel)}
                  onEdit={() => setEditing({ mode: 'edit', channel })}
                  onRotate={() => void askRotate(channel)}
                  onDelete={() => void askDelete(channel)}
                />
              ))}
            </SimpleGrid>
            {data.total > PER_PAGE ? (
              <Group justify="center">
                <Pagination total={Math.ceil(data.total / PER_PAGE)} value={page} onChange={setPage} size="sm" aria-label={t('channels.pages')} />
              </Group>
            ) : null}
          </Stack>
        )}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.mode === 'edit' ? t('channels.editTitle', { name: editing.channel.name }) : t('channels.createTitle')}
        size="lg"
      >
        {editing ? (
          <ChannelForm
            key={editing.mode === 'edit' ? editing.channel.id : 'new'}
            mode={editing.mode}
            initial={editing.mode === 'edit' ? channelFormFrom(editing.channel) : emptyChannelForm()}
            secretSet={editing.mode === 'edit' ? editing.channel.secret_set : false}
            submitting={save.isPending}
            onSubmit={(values) => save.mutate(values)}
            onCancel={() => setEditing(null)}
            refused={refusal.errors}
            onEdited={refusal.edited}
          />
        ) : null}
      </Modal>
      <SecretOnceModal secret={shownSecret?.secret ?? null} channelName={shownSecret?.name ?? ''} onClose={() => setShownSecret(null)} />
    </Page>
  );
}

interface ChannelCardProps {
  channel: Channel;
  result: TestResult | undefined;
  testing: boolean;
  toggling: boolean;
  onTest: () => void;
  onToggle: () => void;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

function ChannelCard({ channel, result, testing, toggling, onTest, onToggle, onEdit, onRotate, onDelete }: ChannelCardProps) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const headingId = `channel-${channel.id}`;
  return (
    <Card withBorder component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
              {channel.name}
            </Title>
            <Group gap={6}>
              <Badge variant="light">{t(`channels.kind.${channel.kind}`)}</Badge>
              <Badge variant="light" color={channel.secret_set ? 'teal' : 'red'}>
                {channel.kind === 'telegram' ? t('channels.tokenState', { state: channel.secret_set ? t('channels.set') : t('channels.notSet') }) : t('channels.secretState', { state: channel.secret_set ? t('channels.set') : t('channels.notSet') })}
              </Badge>
            </Group>
          </Stack>
          <Switch
            checked={channel.enabled}
            disabled={toggling}
            onChange={onToggle}
            label={channel.enabled ? t('channels.on') : t('channels.off')}
            aria-label={t('channels.toggleLabel', { name: channel.name })}
          />
        </Group>
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)', gap: '2px 12px', fontSize: 'var(--mantine-font-size-sm)' }}>
          <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{channel.kind === 'telegram' ? t('channels.form.chatId') : channel.kind === 'email' ? t('channels.form.emailTo') : t('channels.form.url')}</dt>
          <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{channel.kind === 'telegram' ? channel.chat_id : channel.kind === 'email' ? (channel.email_to ?? []).join(', ') : channel.url}</dd>
          <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{t('channels.form.eventKinds')}</dt>
          <dd style={{ margin: 0 }}>{channel.event_kinds.length === 0 ? t('channels.allKinds') : channel.event_kinds.map((kind) => t(`channels.eventKind.${kind}`)).join(', ')}</dd>
          {channel.kind === 'telegram' && channel.message_thread_id !== null ? (
            <>
              <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{t('channels.form.topic')}</dt>
              <dd style={{ margin: 0 }}>{channel.message_thread_id}</dd>
            </>
          ) : null}
          {channel.kind !== 'telegram' && channel.allow_private ? (
            <>
              <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{t('channels.privateTargets')}</dt>
              <dd style={{ margin: 0 }}>{t('channels.allowed')}</dd>
            </>
          ) : null}
          <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{t('channels.updated')}</dt>
          <dd style={{ margin: 0 }}>{formatDateTime(channel.updated_at, timeZone, false)}</dd>
        </dl>
        {result ? (
          <TestResultNote result={result} />
        ) : channel.last_test ? (
          <Text size="sm" c={channel.last_test.ok ? 'teal' : 'red'} style={{ overflowWrap: 'anywhere' }}>
            {channel.last_test.ok
              ? t('channels.lastTestOk', { time: formatDateTime(channel.last_test.at, timeZone, false) })
              : t('channels.lastTestFailed', { time: formatDateTime(channel.last_test.at, timeZone, false), error: channel.last_test.error ?? '' })}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('channels.neverTested')}
          </Text>
        )}
        <Group gap="xs">
          <Button size="xs" variant="light" loading={testing} onClick={onTest}>
            {t('channels.test.send')}
          </Button>
          <Button size="xs" variant="default" onClick={onEdit}>
            {t('common.edit')}
          </Button>
          {channel.kind === 'http_webhook' ? (
            <Button size="xs" variant="default" onClick={onRotate}>
              {t('channels.rotate')}
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
            {t('common.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The last test's outcome: passed or failed, how long it took and what the receiver answered. */
export function TestResultNote({ result }: { result: TestResult }) {
  const { t } = useTranslation();
  const details = [t('channels.test.elapsed', { ms: result.elapsed_ms }), result.status ? t('channels.test.status', { status: result.status }) : null].filter(Boolean).join(' · ');
  return (
    <Alert role="status" color={result.ok ? 'teal' : 'red'} variant="light" title={result.ok ? t('channels.test.passed') : t('channels.test.failed')}>
      <Text size="sm">{details}</Text>
      {!result.ok && (result.message || result.error_code) ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {result.message ?? result.error_code}
        </Text>
      ) : null}
    </Alert>
  );
}
