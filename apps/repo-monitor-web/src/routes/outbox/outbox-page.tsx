import { Badge, Button, Drawer, Group, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, confirmAction, DataTable, EmptyState, ErrorState, formatDateTime, LoadingState, OutsideLink, Page, safeUrl, toast, useUrlParams } from '@shared/web-ui';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { OUTBOX_STATES, OutboxFilters, readOutboxFilters, writeOutboxFilters } from './outbox-filters';

const PER_PAGE = 25;
/** The outbox changes on its own (sends, retries); the issue asks for no slower than 15 s. */
export const OUTBOX_REFRESH_MS = 10_000;

type Entry = Schemas['OutboxEntryDto'];

export const STATE_COLOR: Record<Entry['state'], string> = { pending: 'blue', sending: 'cyan', sent: 'teal', dead: 'red', suppressed: 'gray' };

/** The notification outbox: filter by state and channel, open an entry, retry one or all dead ones. */
export function OutboxPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const [params, setParams] = useUrlParams();
  const filters = readOutboxFilters(params);
  const update = (change: Partial<OutboxFilters>) => setParams(writeOutboxFilters(filters, change), { replace: 'entry' in change && Object.keys(change).length === 1 ? false : true });

  const channels = useQuery({
    queryKey: ['notification-channels', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/notification-channels', { params: { query: { page: 1, per_page: 100 } } })),
  });
  const channelName = useMemo(() => new Map((channels.data?.items ?? []).map((channel) => [channel.id, channel.name])), [channels.data]);

  const query = {
    page: filters.page,
    per_page: PER_PAGE,
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.channel ? { channel_id: filters.channel } : {}),
    ...(filters.event ? { event_id: filters.event } : {}),
  };
  const outbox = useQuery({
    queryKey: ['outbox', query],
    queryFn: () => unwrap(api.GET('/api/v1/notifications/outbox', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: OUTBOX_REFRESH_MS,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['outbox'] });

  const retry = useMutation({
    mutationFn: (entry: Entry) => unwrap(api.POST('/api/v1/notifications/outbox/{id}/retry', { params: { path: { id: entry.id } } })),
    onSuccess: (entry) => {
      toast.success(t('outbox.retried', { id: entry.id }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });

  const deadQuery = { page: 1, per_page: 1, state: 'dead' as const, ...(filters.channel ? { channel_id: filters.channel } : {}) };
  const retryAll = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/notifications/outbox/retry-dead', { body: filters.channel ? { channel_id: filters.channel } : {} })),
    onSuccess: (result) => {
      toast.success(t('outbox.retriedAll', { count: result.retried }));
      void refresh();
    },
    onError: (error) => toast.error(error),
  });
  const askRetryAll = async () => {
    let dead: number;
    try {
      dead = (await queryClient.fetchQuery({ queryKey: ['outbox', deadQuery], queryFn: () => unwrap(api.GET('/api/v1/notifications/outbox', { params: { query: deadQuery } })), staleTime: 0 })).total;
    } catch (error) {
      toast.error(error);
      return;
    }
    if (dead === 0) {
      toast.info(t('outbox.noneDead'));
      return;
    }
    const scope = filters.channel ? t('outbox.scopeChannel', { name: channelName.get(filters.channel) ?? filters.channel }) : t('outbox.scopeAll');
    if (await confirmAction({ title: t('outbox.retryAllTitle'), message: t('outbox.retryAllMessage', { count: dead, scope }), confirmLabel: t('outbox.retryAllConfirm', { count: dead }), cancelLabel: t('common.cancel'), danger: false })) retryAll.mutate();
  };

  const detail = useQuery({
    queryKey: ['outbox', 'entry', filters.entry],
    queryFn: () => unwrap(api.GET('/api/v1/notifications/outbox/{id}', { params: { path: { id: filters.entry ?? 0 } } })),
    enabled: filters.entry !== undefined,
    refetchInterval: OUTBOX_REFRESH_MS,
  });

  const stateOptions = [{ value: '', label: t('outbox.allStates') }, ...OUTBOX_STATES.map((state) => ({ value: state, label: t(`outbox.state.${state}`) }))];
  const channelOptions = [{ value: '', label: t('outbox.allChannels') }, ...(channels.data?.items ?? []).map((channel) => ({ value: channel.id, label: channel.name }))];

  return (
    <Page
      title={t('outbox.title')}
      actions={
        <Button variant="light" color="orange" loading={retryAll.isPending} onClick={() => void askRetryAll()}>
          {t('outbox.retryAll')}
        </Button>
      }
    >
      <Group gap="sm" align="flex-end">
        <Select label={t('outbox.filterState')} data={stateOptions} value={filters.state ?? ''} onChange={(value) => update({ state: (value || undefined) as OutboxFilters['state'] })} allowDeselect={false} w={{ base: '100%', xs: 200 }} />
        <Select label={t('outbox.filterChannel')} data={channelOptions} value={filters.channel ?? ''} onChange={(value) => update({ channel: value || undefined })} allowDeselect={false} w={{ base: '100%', xs: 240 }} searchable />
      </Group>
      {filters.event ? (
        <Group gap="xs">
          <Text size="sm">{t('outbox.ofEvent', { id: filters.event })}</Text>
          <Button size="xs" variant="subtle" onClick={() => update({ event: undefined })}>
            {t('outbox.allEvents')}
          </Button>
        </Group>
      ) : null}
      <DataTable<Entry>
        caption={t('outbox.caption')}
        rows={outbox.data?.items}
        rowKey={(entry) => String(entry.id)}
        loading={outbox.isPending}
        error={outbox.isError && !outbox.data ? outbox.error : undefined}
        onRetry={() => void outbox.refetch()}
        titleColumn="title"
        empty={<EmptyState title={filters.state || filters.channel || filters.event ? t('outbox.emptyFiltered') : t('outbox.empty')} description={t('outbox.emptyText')} />}
        paging={outbox.data ? { kind: 'pages', page: filters.page, pageSize: PER_PAGE, total: outbox.data.total, onPage: (page) => update({ page }) } : undefined}
        columns={[
          {
            key: 'title',
            header: t('outbox.notification'),
            render: (entry) => (
              <Button variant="subtle" size="compact-sm" onClick={() => update({ entry: entry.id })} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} h="auto" py={2}>
                {entry.title || t('outbox.untitled', { id: entry.id })}
              </Button>
            ),
          },
          { key: 'channel', header: t('outbox.channel'), render: (entry) => channelName.get(entry.channel_id) ?? t(`channels.kind.${entry.channel_kind}`) },
          { key: 'state', header: t('outbox.stateLabel'), render: (entry) => <StateBadge state={entry.state} /> },
          { key: 'attempts', header: t('outbox.attempts'), render: (entry) => entry.attempts },
          { key: 'when', header: t('outbox.when'), render: (entry) => whenText(entry, t, timeZone) },
          {
            key: 'actions',
            header: t('outbox.actions'),
            hideOnPhone: false,
            render: (entry) =>
              entry.state === 'dead' ? (
                <Button size="compact-xs" variant="light" loading={retry.isPending && retry.variables?.id === entry.id} onClick={() => retry.mutate(entry)} aria-label={t('outbox.retryOne', { id: entry.id })}>
                  {t('outbox.retry')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Drawer opened={filters.entry !== undefined} onClose={() => update({ entry: undefined })} position="right" size="md" title={t('outbox.detailTitle', { id: filters.entry ?? '' })}>
        {detail.data ? (
          <EntryDetail entry={detail.data} onRetry={() => retry.mutate(detail.data)} retrying={retry.isPending} />
        ) : detail.isError ? (
          detail.error instanceof ApiError && detail.error.status === 404 ? (
            <Text c="red" size="sm" role="alert">
              {t('outbox.detailMissing')}
            </Text>
          ) : (
            <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
          )
        ) : (
          <LoadingState />
        )}
      </Drawer>
    </Page>
  );
}

function whenText(entry: Entry, t: (key: string, options?: Record<string, unknown>) => string, timeZone: string): string {
  if (entry.state === 'sent') return t('outbox.sentAt', { time: formatDateTime(entry.sent_at, timeZone) });
  if (entry.state === 'pending' || entry.state === 'sending') return t('outbox.nextAt', { time: formatDateTime(entry.next_attempt_at, timeZone) });
  return t('outbox.createdAt', { time: formatDateTime(entry.created_at, timeZone) });
}

export function StateBadge({ state }: { state: Entry['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOR[state]} variant="light">
      {t(`outbox.state.${state}`)}
    </Badge>
  );
}

type EntryDetailData = Schemas['OutboxEntryDetailDto'];

function EntryDetail({ entry, onRetry, retrying }: { entry: EntryDetailData; onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const rows: [string, string][] = [
    [t('outbox.stateLabel'), t(`outbox.state.${entry.state}`)],
    [t('outbox.channel'), entry.channel_name ?? t('outbox.deletedChannel', { kind: t(`channels.kind.${entry.channel_kind}`) })],
    [t('outbox.role'), t(`outbox.roles.${entry.role}`)],
    [t('outbox.items'), String(entry.item_count)],
    [t('outbox.attempts'), String(entry.attempts)],
    [t('outbox.nextTry'), entry.state === 'pending' || entry.state === 'sending' ? formatDateTime(entry.next_attempt_at, timeZone) : '—'],
    [t('outbox.sent'), formatDateTime(entry.sent_at, timeZone)],
    [t('outbox.created'), formatDateTime(entry.created_at, timeZone)],
    [t('outbox.event'), entry.event_id === null ? '—' : String(entry.event_id)],
    [t('outbox.idempotencyKey'), entry.idempotency_key],
    ...(entry.aggregated_into !== null ? ([[t('outbox.mergedInto'), String(entry.aggregated_into)]] as [string, string][]) : []),
    ...(entry.merged_entry_ids.length ? ([[t('outbox.merged'), entry.merged_entry_ids.join(', ')]] as [string, string][]) : []),
  ];
  return (
    <Stack gap="sm">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {entry.title}
      </Text>
      <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)', gap: '4px 12px', fontSize: 'var(--mantine-font-size-sm)' }}>
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{label}</dt>
            <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
          </div>
        ))}
      </dl>
      {entry.last_error || entry.last_error_code ? (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t('outbox.lastError')}
          </Text>
          <Text size="sm" c="red" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {[entry.last_error_code, entry.last_error].filter(Boolean).join(': ')}
          </Text>
        </Stack>
      ) : null}
      {entry.payload ? (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t('outbox.message')}
          </Text>
          {entry.payload.repository ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {entry.payload.repository}
            </Text>
          ) : null}
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {entry.payload.body_text}
          </Text>
          {safeUrl(entry.payload.url) ? (
            <OutsideLink href={entry.payload.url} size="sm">
              {t('outbox.openOnGithub')}
            </OutsideLink>
          ) : null}
        </Stack>
      ) : null}
      {entry.state === 'dead' ? (
        <Group>
          <Button onClick={onRetry} loading={retrying}>
            {t('outbox.retry')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
