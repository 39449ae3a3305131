import { Anchor, Badge, Button, Checkbox, Divider, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmAction, DataTable, EmptyState, OutsideLink, Page, toast, useUrlFilter } from '@shared/web-ui';
import { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, Schemas, unwrap } from '../../api/client';
import { AddRepositoryForm } from './add-repository-form';
import {
  NOTIFY_KINDS,
  NotifyKind,
  REPOSITORIES_PER_PAGE,
  REPOSITORY_SOURCES,
  REPOSITORY_STATUSES,
  RepositoryFilter,
  repositoryFilterFromParams,
  repositoryFilterToParams,
  repositoryQuery,
} from './repository-filter';

type Repository = Schemas['RepositoryDto'];

const STATUS_COLOR: Record<Repository['status'], string> = {
  active: 'green',
  archived: 'gray',
  removed: 'red',
};

/** Watched repositories: search, source and status filters and paging in the URL; notification switches, archive, activate, stop watching; add an external one. */
export function RepositoriesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { filter, key: paramsKey, draft, field, go, clear } = useUrlFilter(repositoryFilterFromParams, repositoryFilterToParams);
  const repositories = useQuery({
    queryKey: ['repositories', 'page', paramsKey],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/repositories', {
          params: { query: repositoryQuery(filter) },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['repositories'] });
  const onError = (error: unknown) => {
    toast.error(error);
    void refresh();
  };

  const toggle = useMutation({
    mutationFn: ({ repository, kind, on }: { repository: Repository; kind: NotifyKind; on: boolean }) =>
      unwrap(
        api.PATCH('/api/v1/repositories/{id}', {
          params: { path: { id: repository.id } },
          body: { [kind]: on },
        }),
      ),
    onSuccess: (repository) => {
      toast.success(t('repositories.saved', { name: repository.full_name }));
      void refresh();
    },
    onError,
  });
  const setStatus = useMutation({
    mutationFn: ({ repository, to }: { repository: Repository; to: 'archive' | 'activate' }) =>
      unwrap(
        to === 'archive'
          ? api.POST('/api/v1/repositories/{id}/archive', {
              params: { path: { id: repository.id } },
            })
          : api.POST('/api/v1/repositories/{id}/activate', {
              params: { path: { id: repository.id } },
            }),
      ),
    onSuccess: (repository, { to }) => {
      toast.success(t(to === 'archive' ? 'repositories.archived' : 'repositories.activated', { name: repository.full_name }));
      void refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (repository: Repository) =>
      unwrap(
        api.DELETE('/api/v1/repositories/{id}', {
          params: { path: { id: repository.id } },
        }),
      ),
    onSuccess: (_result, repository) => {
      toast.success(t('repositories.stopped', { name: repository.full_name }));
      void refresh();
    },
    onError,
  });
  const stopWatching = async (repository: Repository) => {
    const name = repository.full_name;
    if (
      await confirmAction({
        title: t('repositories.stopTitle', { name }),
        message: t('repositories.stopMessage', { name }),
        confirmLabel: t('repositories.stopWatching'),
        cancelLabel: t('common.cancel'),
      })
    )
      remove.mutate(repository);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ ...draft, q: draft.q.trim(), page: 1 });
  };
  const filtered = Boolean(filter.q || filter.source || filter.status);
  const busy = toggle.isPending || setStatus.isPending || remove.isPending;

  return (
    <Page title={t('repositories.title')}>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <TextInput label={t('repositories.search')} type="search" value={draft.q} maxLength={200} onChange={(event) => field('q', event.currentTarget.value)} />
            <NativeSelect
              label={t('repositories.source')}
              value={draft.source}
              onChange={(event) => field('source', event.currentTarget.value as RepositoryFilter['source'])}
              data={[
                { value: '', label: t('repositories.anySource') },
                ...REPOSITORY_SOURCES.map((source) => ({
                  value: source,
                  label: t(`repositories.sources.${source}`),
                })),
              ]}
            />
            <NativeSelect
              label={t('repositories.status')}
              value={draft.status}
              onChange={(event) => field('status', event.currentTarget.value as RepositoryFilter['status'])}
              data={[
                { value: '', label: t('repositories.anyStatus') },
                ...REPOSITORY_STATUSES.map((status) => ({
                  value: status,
                  label: t(`repositories.statuses.${status}`),
                })),
              ]}
            />
          </SimpleGrid>
          <Group gap="xs">
            <Button type="submit">{t('repositories.apply')}</Button>
            {filtered ? (
              <Button variant="default" onClick={clear}>
                {t('repositories.clear')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      <DataTable<Repository>
        caption={t('repositories.caption')}
        rows={repositories.data?.items}
        rowKey={(row) => String(row.id)}
        loading={repositories.isPending}
        error={repositories.isError && !repositories.data ? repositories.error : undefined}
        onRetry={() => void repositories.refetch()}
        empty={<EmptyState description={filtered ? t('repositories.empty') : t('repositories.emptyAll')} />}
        titleColumn="name"
        paging={
          repositories.data
            ? {
                kind: 'pages',
                page: repositories.data.page,
                pageSize: REPOSITORIES_PER_PAGE,
                total: repositories.data.total,
                onPage: (page) => go({ ...filter, page }),
              }
            : undefined
        }
        columns={[
          {
            key: 'name',
            header: t('repositories.columns.name'),
            render: (row) => (
              <Group gap={6} wrap="wrap">
                <OutsideLink href={row.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {row.full_name}
                </OutsideLink>
                {row.private ? (
                  <Badge size="xs" variant="outline" color="gray">
                    {t('repositories.private')}
                  </Badge>
                ) : null}
                <Anchor component={Link} to={`/repositories/${row.id}`} size="sm">
                  {t('repositories.activity')}
                </Anchor>
              </Group>
            ),
          },
          {
            key: 'source',
            header: t('repositories.columns.source'),
            render: (row) => t(`repositories.sources.${row.source}`),
          },
          {
            key: 'status',
            header: t('repositories.columns.status'),
            render: (row) => (
              <Badge variant="light" color={STATUS_COLOR[row.status]}>
                {t(`repositories.statuses.${row.status}`)}
              </Badge>
            ),
          },
          {
            key: 'notify',
            header: t('repositories.columns.notify'),
            render: (row) => (
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={4} verticalSpacing={4}>
                {NOTIFY_KINDS.map((kind) => (
                  <Checkbox
                    key={kind}
                    size="xs"
                    label={t(`repositories.kinds.${kind}`)}
                    aria-label={t('repositories.notifyLabel', {
                      kind: t(`repositories.kinds.${kind}`),
                      name: row.full_name,
                    })}
                    checked={row.notify[kind] ?? false}
                    disabled={busy || row.status === 'removed'}
                    onChange={(event) =>
                      toggle.mutate({
                        repository: row,
                        kind,
                        on: event.currentTarget.checked,
                      })
                    }
                  />
                ))}
              </SimpleGrid>
            ),
          },
          {
            key: 'actions',
            header: t('repositories.columns.actions'),
            render: (row) => (
              <Group gap={6} wrap="wrap">
                {row.status === 'active' ? (
                  <Button size="xs" variant="default" disabled={busy} onClick={() => setStatus.mutate({ repository: row, to: 'archive' })} aria-label={`${t('repositories.archive')} ${row.full_name}`}>
                    {t('repositories.archive')}
                  </Button>
                ) : (
                  <Button
                    size="xs"
                    variant="default"
                    disabled={busy}
                    onClick={() => setStatus.mutate({ repository: row, to: 'activate' })}
                    aria-label={`${t('repositories.activate')} ${row.full_name}`}
                  >
                    {t('repositories.activate')}
                  </Button>
                )}
                {row.status !== 'removed' ? (
                  <Button size="xs" variant="light" color="red" disabled={busy} onClick={() => void stopWatching(row)} aria-label={`${t('repositories.stopWatching')} ${row.full_name}`}>
                    {t('repositories.stopWatching')}
                  </Button>
                ) : null}
              </Group>
            ),
          },
        ]}
      />
      <Divider />
      <AddRepositoryForm />
    </Page>
  );
}
