import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, OutsideLink, Page, useUrlFilter } from '@shared/web-ui';
import { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import {
  isRunFiltered,
  RUN_CONCLUSIONS,
  RUN_STATUSES,
  runFilterFromParams,
  runFilterToParams,
  runQuery,
  RUNS_PER_PAGE,
  WorkflowRunFilter,
} from './workflow-run-filter';

/** The list refreshes itself this often while open; the page, filters and scroll position stay. */
export const RUNS_REFRESH_MS = 15_000;

type Run = Schemas['WorkflowRunDto'];

/** A run's outcome: the conclusion once completed (failed ones in red with a warning icon), else its status. */
function RunOutcome({ run }: { run: Run }) {
  const { t } = useTranslation();
  if (run.conclusion) {
    const known = (RUN_CONCLUSIONS as readonly string[]).includes(run.conclusion);
    const label = known ? t(`workflowRuns.conclusions.${run.conclusion}`) : run.conclusion;
    // `failed` comes from the service: the conclusions it notifies about and counts as failed.
    if (run.failed) {
      return (
        // red.9: white text on it keeps a 4.5:1 contrast (red.6 does not).
        <Badge color="red.9" variant="filled" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
          {label}
        </Badge>
      );
    }
    return (
      <Badge color={run.conclusion === 'success' ? 'green' : 'gray'} variant="light">
        {label}
      </Badge>
    );
  }
  const known = (RUN_STATUSES as readonly string[]).includes(run.status);
  return (
    <Badge color="blue" variant="light">
      {known ? t(`workflowRuns.statuses.${run.status}`) : run.status}
    </Badge>
  );
}

/** GitHub Actions runs of the monitored repositories: server-paged, filtered by text, status, conclusion and repository, all kept in the URL. */
export function WorkflowRunsPage() {
  const { t } = useTranslation();
  const { filter, key: paramsKey, draft, field, go, clear } = useUrlFilter(runFilterFromParams, runFilterToParams);
  const timeZone = useTimeZone();
  const runs = useQuery({
    queryKey: ['workflow-runs', paramsKey],
    queryFn: () => unwrap(api.GET('/api/v1/workflow-runs', { params: { query: runQuery(filter) } })),
    refetchInterval: RUNS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const repositories = useQuery({ queryKey: ['repositories', 'all'], queryFn: () => unwrap(api.GET('/api/v1/repositories', { params: { query: { per_page: 100 } } })), staleTime: 60_000 });
  const repositoryName = new Map((repositories.data?.items ?? []).map((repository) => [repository.id, repository.full_name]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ ...draft, q: draft.q.trim(), page: 1 });
  };
  const filtered = isRunFiltered(filter);

  return (
    <Page title={t('workflowRuns.title')}>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="xs">
            <TextInput label={t('workflowRuns.search')} type="search" value={draft.q} maxLength={200} onChange={(event) => field('q', event.currentTarget.value)} />
            <NativeSelect
              label={t('workflowRuns.status')}
              value={draft.status}
              onChange={(event) => field('status', event.currentTarget.value as WorkflowRunFilter['status'])}
              data={[{ value: '', label: t('workflowRuns.anyStatus') }, ...RUN_STATUSES.map((status) => ({ value: status, label: t(`workflowRuns.statuses.${status}`) }))]}
            />
            <NativeSelect
              label={t('workflowRuns.conclusion')}
              value={draft.conclusion}
              onChange={(event) => field('conclusion', event.currentTarget.value as WorkflowRunFilter['conclusion'])}
              data={[{ value: '', label: t('workflowRuns.anyConclusion') }, ...RUN_CONCLUSIONS.map((conclusion) => ({ value: conclusion, label: t(`workflowRuns.conclusions.${conclusion}`) }))]}
            />
            <NativeSelect
              label={t('workflowRuns.repository')}
              value={draft.repositoryId ? String(draft.repositoryId) : ''}
              onChange={(event) => field('repositoryId', event.currentTarget.value ? Number(event.currentTarget.value) : null)}
              data={[{ value: '', label: t('workflowRuns.anyRepository') }, ...(repositories.data?.items ?? []).map((repository) => ({ value: String(repository.id), label: repository.full_name }))]}
            />
          </SimpleGrid>
          <Group gap="xs">
            <Button type="submit">{t('workflowRuns.apply')}</Button>
            {filtered ? (
              <Button variant="default" onClick={clear}>
                {t('workflowRuns.clear')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      <DataTable<Run>
        caption={t('workflowRuns.caption')}
        rows={runs.data?.items}
        rowKey={(row) => String(row.id)}
        loading={runs.isPending}
        error={runs.isError && !runs.data ? runs.error : undefined}
        onRetry={() => void runs.refetch()}
        empty={<EmptyState description={filtered ? t('workflowRuns.empty') : t('workflowRuns.emptyAll')} />}
        titleColumn="workflow"
        paging={
          runs.data ? { kind: 'pages', page: runs.data.page, pageSize: RUNS_PER_PAGE, total: runs.data.total, onPage: (page) => go({ ...filter, page }) } : undefined
        }
        columns={[
          {
            key: 'workflow',
            header: t('workflowRuns.columns.workflow'),
            render: (row) => (
              <OutsideLink href={row.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {row.run_attempt > 1 ? t('workflowRuns.nameWithAttempt', { name: row.workflow_name, attempt: row.run_attempt }) : row.workflow_name}
              </OutsideLink>
            ),
          },
          { key: 'outcome', header: t('workflowRuns.columns.outcome'), render: (row) => <RunOutcome run={row} /> },
          { key: 'repository', header: t('workflowRuns.columns.repository'), render: (row) => repositoryName.get(row.repository_id) ?? `#${row.repository_id}` },
          { key: 'branch', header: t('workflowRuns.columns.branch'), render: (row) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{row.head_branch ?? '—'}</Text> },
          { key: 'commit', header: t('workflowRuns.columns.commit'), render: (row) => <Text size="sm" ff="monospace">{row.head_sha ? row.head_sha.slice(0, 7) : '—'}</Text> },
          { key: 'updated', header: t('workflowRuns.columns.updated'), render: (row) => formatDateTime(row.updated_at, timeZone) },
        ]}
      />
    </Page>
  );
}
