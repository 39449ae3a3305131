import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, OutsideLink, Page, useUrlFilter } from '@shared/web-ui';
import { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import {
  isWorkItemFiltered,
  WORK_ITEM_KINDS,
  WORK_ITEM_STATES,
  WORK_ITEMS_PER_PAGE,
  WorkItemFilter,
  workItemFilterFromParams,
  workItemFilterToParams,
  workItemQuery,
  workItemStatus,
} from './work-item-filter';

/** The list refreshes itself this often while open; the page, filters and scroll position stay. */
export const WORK_ITEMS_REFRESH_MS = 15_000;

const STATUS_COLOR = { open: 'green', draft: 'gray', merged: 'grape', closed: 'red' } as const;

/** Issues and pull requests of the monitored repositories: server-paged, filtered by text, kind, state and repository, all kept in the URL. */
export function WorkItemsPage() {
  const { t } = useTranslation();
  const { filter, key: paramsKey, draft, field, go, clear } = useUrlFilter(workItemFilterFromParams, workItemFilterToParams);
  const timeZone = useTimeZone();
  const items = useQuery({
    queryKey: ['work-items', paramsKey],
    queryFn: () => unwrap(api.GET('/api/v1/work-items', { params: { query: workItemQuery(filter) } })),
    refetchInterval: WORK_ITEMS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const repositories = useQuery({ queryKey: ['repositories', 'all'], queryFn: () => unwrap(api.GET('/api/v1/repositories', { params: { query: { per_page: 100 } } })), staleTime: 60_000 });
  const repositoryName = new Map((repositories.data?.items ?? []).map((repository) => [repository.id, repository.full_name]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ ...draft, q: draft.q.trim(), page: 1 });
  };
  const filtered = isWorkItemFiltered(filter);

  return (
    <Page title={t('workItems.title')}>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="xs">
            <TextInput label={t('workItems.search')} type="search" value={draft.q} maxLength={200} onChange={(event) => field('q', event.currentTarget.value)} />
            <NativeSelect
              label={t('workItems.kind')}
              value={draft.kind}
              onChange={(event) => field('kind', event.currentTarget.value as WorkItemFilter['kind'])}
              data={[{ value: '', label: t('workItems.anyKind') }, ...WORK_ITEM_KINDS.map((kind) => ({ value: kind, label: t(`workItems.kinds.${kind}`) }))]}
            />
            <NativeSelect
              label={t('workItems.state')}
              value={draft.state}
              onChange={(event) => field('state', event.currentTarget.value as WorkItemFilter['state'])}
              data={[{ value: '', label: t('workItems.anyState') }, ...WORK_ITEM_STATES.map((state) => ({ value: state, label: t(`workItems.states.${state}`) }))]}
            />
            <NativeSelect
              label={t('workItems.repository')}
              value={draft.repositoryId ? String(draft.repositoryId) : ''}
              onChange={(event) => field('repositoryId', event.currentTarget.value ? Number(event.currentTarget.value) : null)}
              data={[{ value: '', label: t('workItems.anyRepository') }, ...(repositories.data?.items ?? []).map((repository) => ({ value: String(repository.id), label: repository.full_name }))]}
            />
          </SimpleGrid>
          <Group gap="xs">
            <Button type="submit">{t('workItems.apply')}</Button>
            {filtered ? (
              <Button variant="default" onClick={clear}>
                {t('workItems.clear')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      <DataTable<Schemas['WorkItemDto']>
        caption={t('workItems.caption')}
        rows={items.data?.items}
        rowKey={(row) => String(row.id)}
        loading={items.isPending}
        error={items.isError && !items.data ? items.error : undefined}
        onRetry={() => void items.refetch()}
        empty={<EmptyState description={filtered ? t('workItems.empty') : t('workItems.emptyAll')} />}
        titleColumn="title"
        paging={
          items.data
            ? { kind: 'pages', page: items.data.page, pageSize: WORK_ITEMS_PER_PAGE, total: items.data.total, onPage: (page) => go({ ...filter, page }) }
            : undefined
        }
        columns={[
          {
            key: 'title',
            header: t('workItems.columns.title'),
            render: (row) => (
              <OutsideLink href={row.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {`#${row.number} ${row.title}`}
              </OutsideLink>
            ),
          },
          {
            key: 'kind',
            header: t('workItems.columns.kind'),
            render: (row) => (
              <Badge variant="light" color={row.kind === 'pull_request' ? 'blue' : 'gray'}>
                {t(`workItems.kinds.${row.kind}`)}
              </Badge>
            ),
          },
          {
            key: 'state',
            header: t('workItems.columns.state'),
            render: (row) => {
              const status = workItemStatus(row);
              return (
                <Badge variant="light" color={STATUS_COLOR[status]}>
                  {t(`workItems.statuses.${status}`)}
                </Badge>
              );
            },
          },
          { key: 'repository', header: t('workItems.columns.repository'), render: (row) => repositoryName.get(row.repository_id) ?? `#${row.repository_id}` },
          { key: 'author', header: t('workItems.columns.author'), render: (row) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{row.author ?? '—'}</Text> },
          { key: 'updated', header: t('workItems.columns.updated'), render: (row) => formatDateTime(row.updated_at, timeZone) },
        ]}
      />
    </Page>
  );
}
