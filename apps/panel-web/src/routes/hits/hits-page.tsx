import { Anchor, Badge, Button, Code, Collapse, Group, NativeSelect, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { confirmAction, CursorPaging, DataTable, EmptyState, formatDateTime, OutsideLink, safeUrl, toast, useUrlParams } from '@shared/web-ui';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { Page } from '../../components/page';
import { downloadHitsCsv, useDeleteHits, useHitGroupsQuery, useHitsQuery } from './hits-api';
import { hitFilterFromParams, HitGroupBy, hitViewFromParams, isFiltered, withParams } from './hits-filter';

const PAGE_SIZE = 50;
/** Groups per page of a grouped view. */
const GROUP_PAGE_SIZE = 100;
/** The filters' choices: the tasks, accounts and chats with the latest hits, this many of each (the API's largest page). */
const CHOICES_LIMIT = 1000;
const SEARCH_DELAY_MS = 400;
const PUSH_COLOR: Record<Schemas['KeywordHitDto']['push_status'], string> = { sent: 'teal', pending: 'gray', failed: 'red', skipped: 'yellow' };

type Hit = Schemas['KeywordHitDto'];
type HitGroup = Schemas['KeywordHitGroupDto'];

/**
 * Keyword hits of the listen tasks: filtered, searched and paged by the server (filters in the URL),
 * grouped by task, account or chat, downloaded as CSV or deleted for the current filter.
 */
export function HitsPage() {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const [params, setParams] = useUrlParams();
  const filter = hitFilterFromParams(params, timeZone);
  const filterKey = JSON.stringify(filter);
  const view = hitViewFromParams(params);
  const cursor = params.get('cursor') || undefined;
  const filtered = isFiltered(params);
  // On a phone the less used filters fold away under one button, so the hits start on the first screen.
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const activeFilters = (['task', 'account', 'chat', 'since', 'until'] as const).filter((key) => params.get(key)).length;
  const update = (changes: Record<string, string | undefined>) => setParams((current) => withParams(current, changes));

  // Cursors of the pages before this one, for "previous" (keyset paging only knows "after").
  const [earlier, setEarlier] = useState<{ filterKey: string; cursors: string[] }>({ filterKey, cursors: [] });
  const previousCursors = earlier.filterKey === filterKey ? earlier.cursors : [];

  // `cursor` pages whichever view is shown: the hits, or the groups.
  const hits = useHitsQuery(filter, view === 'list' ? cursor : undefined, PAGE_SIZE);
  const groups = useHitGroupsQuery(view === 'list' ? 'task' : view, filter, { enabled: view !== 'list', cursor: view === 'list' ? undefined : cursor, limit: GROUP_PAGE_SIZE });
  // The choices of the filters: the accounts, tasks and chats with hits (the most recently active first).
  const taskChoices = useHitGroupsQuery('task', {}, { limit: CHOICES_LIMIT });
  const accountChoices = useHitGroupsQuery('account', {}, { limit: CHOICES_LIMIT });
  const chatChoices = useHitGroupsQuery('chat', {}, { limit: CHOICES_LIMIT });
  /** Previous/next through the URL's cursor, for the list and the grouped views alike. */
  const cursorPaging = (nextCursor: string | null | undefined, pageTotal: number | undefined, totalCapped: boolean) =>
    ({
      kind: 'cursor',
      hasPrevious: !!cursor,
      hasNext: !!nextCursor,
      total: pageTotal,
      totalCapped,
      onNext: () => {
        if (!nextCursor) return;
        setEarlier({ filterKey, cursors: [...previousCursors, cursor ?? ''] });
        update({ cursor: nextCursor });
      },
      onPrevious: () => {
        const back = previousCursors.at(-1);
        setEarlier({ filterKey, cursors: previousCursors.slice(0, -1) });
        update({ cursor: back || undefined });
      },
    }) satisfies CursorPaging;

  const [search, setSearch] = useState(params.get('q') ?? '');
  const urlSearch = params.get('q') ?? '';
  useEffect(() => setSearch(urlSearch), [urlSearch]);
  useEffect(() => {
    if (search.trim() === urlSearch.trim()) return undefined;
    const timer = setTimeout(() => update({ q: search.trim() || undefined }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // Only a change of the typed text starts the delay (not a re-render with new params).
  }, [search]);

  const total = hits.data?.total;
  const capped = hits.data?.total_capped ?? false;
  const number = new Intl.NumberFormat(i18n.language);
  const countText = total === undefined ? '' : capped ? t('hits.countCapped', { count: total, formatted: number.format(total) }) : t('hits.count', { count: total, formatted: number.format(total) });

  const [downloading, setDownloading] = useState(false);
  const downloadCsv = async () => {
    setDownloading(true);
    try {
      await downloadHitsCsv(filter);
      toast.success(t('hits.downloaded'));
    } catch (error) {
      toast.error(error, t('hits.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };

  const remove = useDeleteHits({
    onSuccess: (result) => {
      toast.success(t('hits.deletedCount', { count: result.deleted, formatted: number.format(result.deleted) }));
      setParams((current) => withParams(current, {}));
    },
    onError: (error) => toast.error(error, t('hits.deleteFailed')),
  });
  const askDelete = async () => {
    if (total === undefined || total === 0) return;
    const confirmed = await confirmAction({
      title: filtered ? t('hits.deleteTitle', { count: total, formatted: countLabel(total, capped, number) }) : t('hits.deleteAllTitle', { count: total, formatted: countLabel(total, capped, number) }),
      message: filtered ? t('hits.deleteMessage') : t('hits.deleteAllMessage'),
      confirmLabel: t('hits.deleteConfirm'),
      cancelLabel: t('common.cancel'),
    });
    if (confirmed) remove.mutate(filter);
  };

  const choices = (query: ReturnType<typeof useHitGroupsQuery>, current: string | null, label: (group: HitGroup) => string) => {
    const options = (query.data?.groups ?? []).map((group) => ({ value: group.key, label: label(group) }));
    if (current && !options.some((option) => option.value === current)) options.unshift({ value: current, label: current });
    return [{ value: '', label: t('common.all') }, ...options];
  };
  const chatLabel = (group: HitGroup) => (group.title ? `${group.title} (${group.key})` : group.key);

  const columns = [
    { key: 'message', header: t('hits.message'), render: (hit: Hit) => <MessageCell hit={hit} /> },
    { key: 'time', header: t('hits.time'), render: (hit: Hit) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(hit.hit_at, timeZone)}</Text> },
    { key: 'keyword', header: t('hits.keyword'), render: (hit: Hit) => <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{hit.matched_keyword}</Code> },
    { key: 'chat', header: t('hits.chat'), render: (hit: Hit) => <ChatCell hit={hit} /> },
    { key: 'sender', header: t('hits.sender'), render: (hit: Hit) => senderText(hit) || '—' },
    { key: 'task', header: t('hits.taskAccount'), render: (hit: Hit) => `${hit.task_name} · ${hit.account_name}` },
    { key: 'push', header: t('hits.push'), render: (hit: Hit) => <PushCell hit={hit} /> },
  ];

  return (
    <Page
      title={t('hits.title')}
      actions={
        <>
          <Button size="xs" variant="default" onClick={() => void downloadCsv()} loading={downloading} disabled={!total}>
            {t('hits.download')}
          </Button>
          <Button size="xs" color="red" variant="light" onClick={() => void askDelete()} loading={remove.isPending} disabled={!total}>
            {filtered ? t('hits.deleteFiltered') : t('hits.deleteAll')}
          </Button>
        </>
      }
    >
      <Stack gap="xs" maw={phone ? undefined : 560}>
        <TextInput type="search" label={t('hits.search')} description={t('hits.searchHint')} value={search} onChange={(event) => setSearch(event.currentTarget.value)} maxLength={256} />
        {phone ? (
          <Button variant="default" size="sm" aria-expanded={filtersOpen} aria-controls={filtersId} onClick={() => setFiltersOpen((open) => !open)}>
            {activeFilters ? t('hits.moreFiltersActive', { count: activeFilters }) : t('hits.moreFilters')}
          </Button>
        ) : null}
      </Stack>
      <Collapse expanded={filtersOpen || !phone} id={filtersId}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} spacing="xs">
          <NativeSelect label={t('hits.task')} value={params.get('task') ?? ''} data={choices(taskChoices, params.get('task'), (group) => group.key)} onChange={(event) => update({ task: event.currentTarget.value || undefined })} />
          <NativeSelect label={t('hits.account')} value={params.get('account') ?? ''} data={choices(accountChoices, params.get('account'), (group) => group.key)} onChange={(event) => update({ account: event.currentTarget.value || undefined })} />
          <NativeSelect label={t('hits.chat')} value={params.get('chat') ?? ''} data={choices(chatChoices, params.get('chat'), chatLabel)} onChange={(event) => update({ chat: event.currentTarget.value || undefined })} />
          <TextInput type="date" label={t('hits.since')} value={params.get('since') ?? ''} onChange={(event) => update({ since: event.currentTarget.value || undefined })} />
          <TextInput type="date" label={t('hits.until')} value={params.get('until') ?? ''} onChange={(event) => update({ until: event.currentTarget.value || undefined })} />
        </SimpleGrid>
      </Collapse>
      <Group justify="space-between" gap="xs">
        <SegmentedControl
          size="xs"
          aria-label={t('hits.view')}
          value={view}
          onChange={(value) => update({ view: value === 'list' ? undefined : value })}
          data={[
            { value: 'list', label: t('hits.viewList') },
            { value: 'task', label: t('hits.byTask') },
            { value: 'account', label: t('hits.byAccount') },
            { value: 'chat', label: t('hits.byChat') },
          ]}
        />
        <Group gap="xs">
          <Text size="sm" c="dimmed" role="status">
            {countText}
          </Text>
          {filtered ? (
            <Button variant="subtle" size="xs" onClick={() => setParams(view === 'list' ? new URLSearchParams() : new URLSearchParams({ view }))}>
              {t('hits.clear')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {view === 'list' ? (
        <DataTable<Hit>
          caption={t('hits.title')}
          rows={hits.data?.items}
          rowKey={(hit) => String(hit.id)}
          loading={hits.isPending}
          error={hits.error}
          onRetry={() => void hits.refetch()}
          titleColumn="message"
          empty={<EmptyState title={filtered ? t('hits.noMatch') : t('hits.empty')} description={t('hits.emptyHint')} />}
          paging={cursorPaging(hits.data?.next_cursor, total, capped)}
          columns={columns}
        />
      ) : (
        <HitGroups
          view={view}
          query={groups}
          paging={cursorPaging(groups.data?.next_cursor, groups.data?.total, false)}
          filtered={filtered}
          timeZone={timeZone}
          onOpen={(group) => update({ [view]: group.key, view: undefined })}
        />
      )}
    </Page>
  );
}

function HitGroups({
  view,
  query,
  paging,
  filtered,
  timeZone,
  onOpen,
}: {
  view: HitGroupBy;
  query: ReturnType<typeof useHitGroupsQuery>;
  paging: CursorPaging;
  filtered: boolean;
  timeZone: string;
  onOpen: (group: HitGroup) => void;
}) {
  const { t } = useTranslation();
  const name = (group: HitGroup) => (view === 'chat' && group.title ? group.title : group.key);
  const headers: Record<HitGroupBy, string> = { task: t('hits.task'), account: t('hits.account'), chat: t('hits.chat') };
  return (
    <DataTable<HitGroup>
      caption={t('hits.groupsCaption', { by: headers[view] })}
      rows={query.data?.groups}
      rowKey={(group) => group.key}
      loading={query.isPending}
      error={query.error}
      onRetry={() => void query.refetch()}
      titleColumn="group"
      paging={paging}
      empty={<EmptyState title={filtered ? t('hits.noMatch') : t('hits.empty')} description={t('hits.emptyHint')} />}
      columns={[
        {
          key: 'group',
          header: headers[view],
          render: (group) => (
            <Stack gap={0} align="flex-start">
              <Anchor component="button" type="button" fw={600} style={{ overflowWrap: 'anywhere', textAlign: 'left' }} onClick={() => onOpen(group)} aria-label={t('hits.openGroup', { name: name(group), count: group.count })}>
                {name(group)}
              </Anchor>
              {view === 'chat' && group.title ? (
                <Text size="xs" c="dimmed">
                  {group.key}
                </Text>
              ) : null}
            </Stack>
          ),
        },
        { key: 'count', header: t('hits.groupCount'), render: (group) => group.count },
        { key: 'latest', header: t('hits.latest'), render: (group) => formatDateTime(group.latest_hit.hit_at, timeZone) },
        {
          key: 'text',
          header: t('hits.latestText'),
          render: (group) => (
            <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {group.latest_hit.text}
            </Text>
          ),
        },
      ]}
    />
  );
}

function MessageCell({ hit }: { hit: Hit }) {
  const { t } = useTranslation();
  const url = safeUrl(hit.url);
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="sm" lineClamp={4} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {hit.text}
      </Text>
      {url ? (
        <OutsideLink href={url} size="xs">
          {t('hits.openMessage')}
        </OutsideLink>
      ) : null}
    </Stack>
  );
}

function ChatCell({ hit }: { hit: Hit }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {hit.chat_title ?? hit.chat_id}
      </Text>
      {hit.chat_title ? (
        <Text size="xs" c="dimmed">
          {hit.chat_id}
          {hit.message_thread_id ? ` · #${hit.message_thread_id}` : ''}
        </Text>
      ) : null}
    </Stack>
  );
}

function PushCell({ hit }: { hit: Hit }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} align="flex-start">
      <Group gap={6} wrap="wrap">
        <Badge color={PUSH_COLOR[hit.push_status]} variant="light" style={{ flexShrink: 0 }}>
          {t(`hits.pushStatus.${hit.push_status}`)}
        </Badge>
        <Text size="xs" c="dimmed">
          {t(`hits.pushChannel.${hit.push_channel}`)}
        </Text>
      </Group>
      {hit.push_error ? (
        <Text size="xs" c="red" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
          {hit.push_error}
        </Text>
      ) : null}
    </Stack>
  );
}

function senderText(hit: Hit): string {
  const name = hit.sender_name ?? '';
  const username = hit.sender_username ? `@${hit.sender_username}` : '';
  return [name, username].filter(Boolean).join(' ') || (hit.sender_id ?? '');
}

function countLabel(total: number, capped: boolean, number: Intl.NumberFormat): string {
  return capped ? `${number.format(total)}+` : number.format(total);
}
