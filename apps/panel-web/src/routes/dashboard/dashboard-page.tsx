import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  confirmAction,
  EmptyState,
  formatDateTime,
  LiveBadge,
  QueryState,
  SseMessage,
  toast,
  useEventStream,
} from '@shared/web-ui';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { authHeaders } from '../../api/client';
import { session } from '../../auth/session';
import { categoryLabel, jobLabel } from '../../components/codes';
import { useAccountListQuery, useActiveRunsQuery, useTaskListQuery, useTimeZone } from '../../components/hooks';
import { Page } from '../../components/page';
import { useReplicaFailureToasts } from '../../components/replica-failures';
import { useRunText } from '../../components/run-text';
import { useCancelRun, useDashboardStatsQuery, useRefreshAfterLiveLog, useScheduledJobsQuery } from './dashboard-api';
import { GettingStartedCard } from './getting-started-card';
import { SignChart } from './sign-chart';


export interface LiveSignLog {
  run_id: string;
  account_name: string;
  task_name: string;
  success: boolean;
  message: string;
  /** Set when the runner or a named error wrote the message: said in the page's language with `message_params`. */
  message_code?: string | null;
  message_params?: Record<string, string>;
  created_at: string;
  failure_category: string;
}

const LIVE_ROWS = 20;

/** A `sign_log` message as a row: the run id is the event's `id:`, the rest its JSON data. */
export function liveSignLogOf(message: SseMessage): LiveSignLog | undefined {
  if (message.event !== 'sign_log' || !message.id) return undefined;
  try {
    return { ...(JSON.parse(message.data) as Omit<LiveSignLog, 'run_id'>), run_id: message.id };
  } catch {
    return undefined;
  }
}

/** Adds a streamed run at the top, once (a reconnect may repeat one), keeping the newest 20. */
export function mergeLive(
  current: LiveSignLog[],
  event: LiveSignLog,
): LiveSignLog[] {
  if (current.some((row) => row.run_id === event.run_id)) return current;
  return [event, ...current].slice(0, LIVE_ROWS);
}

function Stat({
  label,
  value,
  color,
}: {
  label: string;
  value: number | string;
  color?: string;
}) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {value}
      </Text>
    </Card>
  );
}

/** Today's figures, the 14-day chart, active runs, next jobs, failure categories and the live history. */
export function DashboardPage() {
  const { t } = useTranslation();
  const runText = useRunText();
  const timeZone = useTimeZone();
  const stats = useDashboardStatsQuery();
  const active = useActiveRunsQuery();
  const jobs = useScheduledJobsQuery();
  const accounts = useAccountListQuery();
  const tasks = useTaskListQuery();
  const [live, setLive] = useState<LiveSignLog[]>([]);
  const refreshAfterLiveLog = useRefreshAfterLiveLog();
  const onMessage = useCallback(
    (message: SseMessage) => {
      const row = liveSignLogOf(message);
      if (!row) return;
      setLive((current) => mergeLive(current, row));
      refreshAfterLiveLog();
    },
    [refreshAfterLiveLog],
  );
  const status = useEventStream({
    url: '/api/events/sign-history',
    headers: authHeaders,
    onMessage,
    onUnauthorized: () => session.expire(window.location.pathname),
    // Runs that finished while the stream was down show in the figures and active runs read again.
    onReconnect: refreshAfterLiveLog,
  });
  const replicaFailures = useReplicaFailureToasts();
  const cancel = useCancelRun({
    onSuccess: (result) => {
      toast.success(t('dashboard.cancelled', { count: result.cancelled }));
      replicaFailures.afterCancel(result);
    },
    onError: (error) => toast.error(error),
  });

  return (
    <Page title={t('dashboard.title')} actions={<LiveBadge status={status} />}>
      <GettingStartedCard />
      {/* While loading, hold the space the figures and the chart take (no layout shift). */}
      {stats.isPending ? (
        <Skeleton height={560} radius="md" />
      ) : (
        <QueryState query={stats}>
          {(data) => (
            <Stack gap="md">
              <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
                <Stat
                  label={t('dashboard.todaySuccess')}
                  value={data.today_success}
                  color="teal"
                />
                <Stat
                  label={t('dashboard.todayFailure')}
                  value={data.today_failure}
                  color={data.today_failure ? 'red' : undefined}
                />
                <Stat
                  label={t('dashboard.todayHits')}
                  value={data.today_keyword_hits}
                />
                <Stat
                  label={t('dashboard.accounts')}
                  value={accounts.data?.total ?? '—'}
                />
                <Stat
                  label={t('dashboard.tasks')}
                  value={tasks.data?.total ?? '—'}
                />
              </SimpleGrid>
              <Card withBorder>
                <Title order={3} size="h5" mb="xs">
                  {t('dashboard.chartTitle', { zone: data.time_zone })}
                </Title>
                <SignChart days={data.days} />
              </Card>
              <Card withBorder>
                <Title order={3} size="h5" mb="xs">
                  {t('dashboard.failureCategories')}
                </Title>
                {data.failure_categories.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('dashboard.noFailures')}
                  </Text>
                ) : (
                  <Group gap="xs">
                    {data.failure_categories.map((category) => (
                      <Button
                        key={category.category}
                        component={Link}
                        to={`/history?status=failure&failure_category=${encodeURIComponent(category.category)}`}
                        variant="light"
                        color="red"
                        size="xs"
                      >
                        {t('dashboard.categoryLink', {
                          category: categoryLabel(t, category.category),
                          count: category.count,
                        })}
                      </Button>
                    ))}
                  </Group>
                )}
              </Card>
            </Stack>
          )}
        </QueryState>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('dashboard.activeRuns')}
          </Title>
          <QueryState
            query={active}
            isEmpty={(data) => data.runs.length === 0}
            empty={
              <Text size="sm" c="dimmed">
                {t('dashboard.noActiveRuns')}
              </Text>
            }
          >
            {(data) => (
              <Stack
                gap="xs"
                component="ul"
                style={{ listStyle: 'none', padding: 0, margin: 0 }}
              >
                {data.runs.map((run) => (
                  <Group
                    key={run.run_id}
                    component="li"
                    justify="space-between"
                    wrap="nowrap"
                    gap="xs"
                  >
                    <div style={{ minWidth: 0 }}>
                      <Anchor
                        component={Link}
                        to={`/tasks/${encodeURIComponent(run.task_name)}`}
                        size="sm"
                        fw={600}
                      >
                        {run.task_name}
                      </Anchor>
                      <Text
                        size="xs"
                        c="dimmed"
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {run.account_name} · {t(`panel.phase.${run.phase}`, { defaultValue: run.phase })}
                        {run.phase_detail ? ` · ${runText.phaseDetail(run)}` : ''}
                      </Text>
                    </div>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      loading={
                        cancel.isPending && cancel.variables === run.task_name
                      }
                      onClick={async () => {
                        if (
                          await confirmAction({
                            title: t('dashboard.cancelTitle'),
                            message: t('dashboard.cancelMessage', {
                              task: run.task_name,
                            }),
                            confirmLabel: t('dashboard.cancel'),
                            cancelLabel: t('common.back'),
                          })
                        )
                          cancel.mutate(run.task_name);
                      }}
                    >
                      {t('dashboard.cancel')}
                    </Button>
                  </Group>
                ))}
              </Stack>
            )}
          </QueryState>
        </Card>
        <Card withBorder>
          <Group justify="space-between" mb="xs">
            <Title order={3} size="h5">
              {t('dashboard.nextJobs')}
            </Title>
            {jobs.data && !jobs.data.lock_held ? (
              <Badge color="yellow">{t('dashboard.noLock')}</Badge>
            ) : null}
          </Group>
          <QueryState
            query={jobs}
            isEmpty={(data) => data.jobs.length === 0}
            empty={
              <Text size="sm" c="dimmed">
                {t('dashboard.noJobs')}
              </Text>
            }
          >
            {(data) => (
              <Stack
                gap={6}
                component="ul"
                style={{ listStyle: 'none', padding: 0, margin: 0 }}
              >
                {[...data.jobs]
                  .filter((job) => job.next_run_at)
                  .sort((a, b) =>
                    String(a.next_run_at).localeCompare(String(b.next_run_at)),
                  )
                  .slice(0, 8)
                  .map((job) => (
                    <Group
                      key={job.id}
                      component="li"
                      justify="space-between"
                      wrap="nowrap"
                      gap="xs"
                    >
                      <Text
                        size="sm"
                        style={{ overflowWrap: 'anywhere', minWidth: 0 }}
                      >
                        {jobLabel(t, job)}
                      </Text>
                      <Text
                        size="sm"
                        c="dimmed"
                        style={{ whiteSpace: 'nowrap' }}
                      >
                        {formatDateTime(job.next_run_at, timeZone, false)}
                      </Text>
                    </Group>
                  ))}
              </Stack>
            )}
          </QueryState>
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h5">
            {t('dashboard.liveHistory')}
          </Title>
          <Anchor component={Link} to="/history" size="sm">
            {t('dashboard.allHistory')}
          </Anchor>
        </Group>
        {live.length === 0 ? (
          <EmptyState
            title={t('dashboard.liveEmpty')}
            description={t('dashboard.liveEmptyHint')}
          />
        ) : (
          <Stack
            gap="xs"
            component="ul"
            aria-live="polite"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {live.map((row) => (
              <li key={row.run_id}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge
                    color={row.success ? 'teal' : 'red'}
                    variant="light"
                    style={{ flexShrink: 0 }}
                  >
                    {row.success
                      ? t('dashboard.success')
                      : t('dashboard.failure')}
                  </Badge>
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600}>
                      {row.task_name} · {row.account_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(row.created_at, timeZone)}
                      {row.success ? '' : ` · ${categoryLabel(t, row.failure_category)}`}
                    </Text>
                    <Text
                      size="sm"
                      style={{
                        overflowWrap: 'anywhere',
                        whiteSpace: 'pre-wrap',
                      }}
                    >
                      {runText.message(row)}
                    </Text>
                  </div>
                </Group>
              </li>
            ))}
          </Stack>
        )}
      </Card>
    </Page>
  );
}
