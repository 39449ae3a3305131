import { Anchor, Badge, Button, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, OutsideLink, Page, useUrlFilter } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useEventTitle } from '../../components/event-title';
import { useTimeZone } from '../../components/hooks';
import { WrappingBadge } from '../../components/wrapping-badge';
import { EventRoutingModal } from './event-routing';
import { EVENT_CATEGORIES, EventFilter, eventFilterFromParams, eventFilterToParams, eventQuery, EVENTS_PER_PAGE } from './event-filter';

const NOTIFICATION_COLOR: Record<Schemas['EventDto']['notification'], string> = {
  not_notified: 'gray',
  queued: 'blue',
  failing: 'orange',
  failed: 'red',
  sent: 'teal',
  suppressed: 'gray',
  notified: 'teal',
};

/** The list refreshes itself this often while open; the page, filters and scroll position stay. */
export const EVENTS_REFRESH_MS = 15_000;

/** The full event log: server-paged, filtered by text, category, kind, repository and days, all kept in the URL. */
export function EventsPage() {
  const { t } = useTranslation();
  const titleOf = useEventTitle();
  const { filter, key: paramsKey, draft, field, go, clear } = useUrlFilter(eventFilterFromParams, eventFilterToParams);
  const timeZone = useTimeZone();
  const events = useQuery({
    queryKey: ['events', paramsKey, timeZone],
    queryFn: () => unwrap(api.GET('/api/v1/events', { params: { query: eventQuery(filter, timeZone) } })),
    refetchInterval: EVENTS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const repositories = useQuery({ queryKey: ['repositories', 'all'], queryFn: () => unwrap(api.GET('/api/v1/repositories', { params: { query: { per_page: 100 } } })), staleTime: 60_000 });
  const repositoryName = new Map((repositories.data?.items ?? []).map((repository) => [repository.id, repository.full_name]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ ...draft, q: draft.q.trim(), kind: draft.kind.trim(), page: 1 });
  };
  const [explained, setExplained] = useState<{ id: number; title: string } | null>(null);
  const filtered = Boolean(filter.q || filter.category || filter.kind || filter.repositoryId || filter.from || filter.to);

  return (
    <Page title={t('events.title')}>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
            <TextInput label={t('events.search')} type="search" value={draft.q} maxLength={200} onChange={(event) => field('q', event.currentTarget.value)} />
            <NativeSelect
              label={t('events.category')}
              value={draft.category}
              onChange={(event) => field('category', event.currentTarget.value as EventFilter['category'])}
              data={[{ value: '', label: t('events.anyCategory') }, ...EVENT_CATEGORIES.map((category) => ({ value: category, label: t(`events.categories.${category}`) }))]}
            />
            <TextInput label={t('events.kind')} value={draft.kind} maxLength={64} onChange={(event) => field('kind', event.currentTarget.value)} />
            <NativeSelect
              label={t('events.repository')}
              value={draft.repositoryId ? String(draft.repositoryId) : ''}
              onChange={(event) => field('repositoryId', event.currentTarget.value ? Number(event.currentTarget.value) : null)}
              data={[{ value: '', label: t('events.anyRepository') }, ...(repositories.data?.items ?? []).map((repository) => ({ value: String(repository.id), label: repository.full_name }))]}
            />
            <TextInput label={t('events.from')} type="date" value={draft.from} onChange={(event) => field('from', event.currentTarget.value)} />
            <TextInput label={t('events.to')} type="date" value={draft.to} onChange={(event) => field('to', event.currentTarget.value)} />
          </SimpleGrid>
          <Group gap="xs">
            <Button type="submit">{t('events.apply')}</Button>
            {filtered ? (
              <Button variant="default" onClick={clear}>
                {t('events.clear')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      <DataTable<Schemas['EventDto']>
        caption={t('events.caption')}
        rows={events.data?.items}
        rowKey={(row) => String(row.id)}
        loading={events.isPending}
        error={events.isError && !events.data ? events.error : undefined}
        onRetry={() => void events.refetch()}
        empty={<EmptyState description={filtered ? t('events.empty') : t('events.emptyAll')} />}
        titleColumn="title"
        paging={
          events.data
            ? { kind: 'pages', page: events.data.page, pageSize: EVENTS_PER_PAGE, total: events.data.total, onPage: (page) => go({ ...filter, page }) }
            : undefined
        }
        columns={[
          {
            key: 'title',
            header: t('events.columns.title'),
            render: (row) => (
              <OutsideLink href={row.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {titleOf(row)}
              </OutsideLink>
            ),
          },
          { key: 'time', header: t('events.columns.time'), render: (row) => formatDateTime(row.occurred_at, timeZone) },
          {
            key: 'category',
            header: t('events.columns.category'),
            render: (row) => (
              <Badge variant="light" color="gray">
                {t(`events.categories.${row.category}`)}
              </Badge>
            ),
          },
          { key: 'repository', header: t('events.columns.repository'), render: (row) => (row.repository_id ? (repositoryName.get(row.repository_id) ?? `#${row.repository_id}`) : '—') },
          { key: 'actor', header: t('events.columns.actor'), render: (row) => row.actor ?? '—' },
          {
            key: 'notified',
            header: t('events.columns.notified'),
            render: (row) => {
              const badge = (
                <WrappingBadge color={NOTIFICATION_COLOR[row.notification]}>
                  {t(`events.notification.${row.notification}`)}
                </WrappingBadge>
              );
              if (row.notification === 'not_notified' || row.notification === 'notified') return badge;
              return (
                <Anchor component={Link} to={`/outbox?event=${row.id}`} aria-label={t('events.notificationLink', { id: row.id, state: t(`events.notification.${row.notification}`) })}>
                  {badge}
                </Anchor>
              );
            },
          },
          {
            key: 'routing',
            header: t('events.routing.show'),
            render: (row) => (
              <Button variant="subtle" size="compact-sm" aria-label={t('events.routing.showLabel', { title: titleOf(row) })} onClick={() => setExplained({ id: row.id, title: titleOf(row) })}>
                {t('events.routing.show')}
              </Button>
            ),
          },
        ]}
      />
      <EventRoutingModal event={explained} onClose={() => setExplained(null)} />
    </Page>
  );
}
