import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, UseQueryResult } from '@tanstack/react-query';
import { ErrorState, formatDateTime, LoadingState, OutsideLink, Page } from '@shared/web-ui';
import { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { NotFoundPage } from '../../components/not-found';
import { WrappingBadge } from '../../components/wrapping-badge';

const RECENT = 10;
const SEVERITIES: readonly string[] = ['critical', 'high', 'medium', 'low'];

interface Row {
  key: string;
  title: ReactNode;
  detail: ReactNode;
}

/** One section of the page: the newest rows of one kind, and a link to all of them on their own page. */
function Section({ title, query, rows, allHref, empty }: { title: string; query: UseQueryResult<{ total: number }>; rows: Row[]; allHref: string; empty: string }) {
  const { t } = useTranslation();
  const headingId = `repository-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} size="h5" id={headingId}>
          {title}
        </Title>
        {query.data && query.data.total > 0 ? (
          <Anchor component={Link} to={allHref} size="sm">
            {t('repositories.detail.seeAll', { count: query.data.total })}
          </Anchor>
        ) : null}
      </Group>
      {query.isPending ? (
        <LoadingState rows={2} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((row) => (
            <li key={row.key}>
              <Stack gap={0}>
                {row.title}
                <Text size="xs" c="dimmed">
                  {row.detail}
                </Text>
              </Stack>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** One repository: its newest events, issues and pull requests, workflow runs and security alerts. */
export function RepositoryPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const raw = useParams()['id'] ?? '';
  const id = /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 2_147_483_647 ? Number(raw) : undefined;
  const query = { repository_id: id ?? 0, page: 1, per_page: RECENT };
  const repository = useQuery({ queryKey: ['repositories', 'one', id], queryFn: () => unwrap(api.GET('/api/v1/repositories/{id}', { params: { path: { id: id ?? 0 } } })), enabled: id !== undefined });
  const ready = repository.isSuccess;
  const events = useQuery({ queryKey: ['events', 'repository', id], queryFn: () => unwrap(api.GET('/api/v1/events', { params: { query } })), enabled: ready });
  const items = useQuery({ queryKey: ['work-items', 'repository', id], queryFn: () => unwrap(api.GET('/api/v1/work-items', { params: { query: { ...query, state: 'open' } } })), enabled: ready });
  const runs = useQuery({ queryKey: ['workflow-runs', 'repository', id], queryFn: () => unwrap(api.GET('/api/v1/workflow-runs', { params: { query } })), enabled: ready });
  const alerts = useQuery({ queryKey: ['security-alerts', 'repository', id], queryFn: () => unwrap(api.GET('/api/v1/security-alerts', { params: { query: { ...query, state: 'open' } } })), enabled: ready });
  if (id === undefined || (repository.isError && (repository.error as { status?: number }).status === 404)) return <NotFoundPage />;
  if (repository.isPending) return <LoadingState rows={6} />;
  if (repository.isError) return <ErrorState error={repository.error} onRetry={() => void repository.refetch()} />;
  const repo = repository.data;
  const filter = `repository=${repo.id}`;
  return (
    <Page title={repo.full_name}>
      <Group gap="xs" wrap="wrap">
        <WrappingBadge color="gray">{t(`repositories.sources.${repo.source}`)}</WrappingBadge>
        <WrappingBadge color={repo.status === 'active' ? 'teal' : 'gray'}>{t(`repositories.statuses.${repo.status}`)}</WrappingBadge>
        <OutsideLink href={repo.html_url} size="sm">
          {t('repositories.detail.onGitHub')}
        </OutsideLink>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section
          title={t('repositories.detail.events')}
          query={events}
          allHref={`/events?${filter}`}
          empty={t('repositories.detail.noEvents')}
          rows={(events.data?.items ?? []).map((event) => ({
            key: String(event.id),
            title: event.html_url ? (
              <OutsideLink href={event.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {event.title}
              </OutsideLink>
            ) : (
              <Text size="sm">{event.title}</Text>
            ),
            detail: formatDateTime(event.occurred_at, timeZone),
          }))}
        />
        <Section
          title={t('repositories.detail.workItems')}
          query={items}
          allHref={`/work-items?${filter}&state=open`}
          empty={t('repositories.detail.noWorkItems')}
          rows={(items.data?.items ?? []).map((item) => ({
            key: String(item.id),
            title: (
              <OutsideLink href={item.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {`#${item.number} ${item.title}`}
              </OutsideLink>
            ),
            detail: `${t(item.kind === 'pull_request' ? 'repositories.detail.pullRequest' : 'repositories.detail.issue')} · ${formatDateTime(item.updated_at, timeZone)}`,
          }))}
        />
        <Section
          title={t('repositories.detail.runs')}
          query={runs}
          allHref={`/workflow-runs?${filter}`}
          empty={t('repositories.detail.noRuns')}
          rows={(runs.data?.items ?? []).map((run) => ({
            key: String(run.id),
            title: (
              <OutsideLink href={run.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {run.workflow_name}
              </OutsideLink>
            ),
            detail: `${run.head_branch ? `${run.head_branch} · ` : ''}${run.failed ? t('repositories.detail.failed') : run.conclusion ? t('repositories.detail.finished') : t('repositories.detail.running')} · ${formatDateTime(run.updated_at, timeZone)}`,
          }))}
        />
        <Section
          title={t('repositories.detail.alerts')}
          query={alerts}
          allHref={`/security-alerts?${filter}&state=open`}
          empty={t('repositories.detail.noAlerts')}
          rows={(alerts.data?.items ?? []).map((alert) => ({
            key: String(alert.id),
            title: (
              <OutsideLink href={alert.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {alert.summary}
              </OutsideLink>
            ),
            detail: `${alert.severity && SEVERITIES.includes(alert.severity) ? t(`repositories.detail.severity.${alert.severity}`) : t('repositories.detail.severity.unknown')} · ${formatDateTime(alert.updated_at, timeZone)}`,
          }))}
        />
      </SimpleGrid>
    </Page>
  );
}
