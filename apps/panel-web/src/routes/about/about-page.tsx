import { Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ErrorState, formatDateTime, LoadingState, OutsideLink, QueryState, safeUrl, toast } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { useTimeZone } from '../../components/hooks';
import { formatBytes, formatDuration } from './format';
import { RuntimeDetails } from './runtime-details';
import { useCheckForUpdate, useClusterQuery, useMemoryQuery, useRuntimeQuery, useVersionQuery } from './about-api';
import { ClusterOverview } from './cluster-overview';

const STATE_COLOR: Record<string, string> = { running: 'green', idle: 'blue', disabled: 'gray', stopped: 'gray', degraded: 'yellow', error: 'red' };

/** The version, the update check and the replicas sharing the database; memory and the runtime status are on the System status page. */
export function AboutPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const version = useVersionQuery();
  const check = useCheckForUpdate({ onError: (error) => toast.error(error) });
  const cluster = useClusterQuery();
  const result = check.data;
  return (
    <Page title={t('about.title')}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('about.version')}
          </Title>
          <QueryState query={version}>
            {(data) => (
              <Stack gap="xs">
                <Text size="xl" fw={700}>
                  {data.version}
                </Text>
                <Text size="sm" c="dimmed">
                  {[data.runtime, data.node_version, data.git_branch, data.git_sha?.slice(0, 12), data.build_time ? formatDateTime(data.build_time, timeZone) : null].filter(Boolean).join(' · ')}
                </Text>
                <Group>
                  <Button size="xs" variant="light" onClick={() => check.mutate()} loading={check.isPending}>
                    {t('about.checkUpdate')}
                  </Button>
                </Group>
                {result ? (
                  <Text size="sm" role="status">
                    {!result.enabled
                      ? t('about.checkDisabled')
                      : !result.ok
                        ? t('about.checkFailed', { reason: result.reason ?? '' })
                        : result.update_available
                          ? t('about.updateAvailable', { version: result.latest_version ?? '' })
                          : t('about.upToDate')}{' '}
                    {safeUrl(result.release_url) && result.update_available ? <OutsideLink href={result.release_url}>{t('about.releaseNotes')}</OutsideLink> : null}
                  </Text>
                ) : null}
              </Stack>
            )}
          </QueryState>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('about.systemTitle')}
          </Title>
          <Text size="sm" mb="xs">
            {t('about.systemHint')}
          </Text>
          <Group>
            <Button size="xs" variant="light" component={Link} to="/system">
              {t('about.openSystem')}
            </Button>
          </Group>
        </Card>
      </SimpleGrid>
      <Card withBorder component="section" aria-labelledby="about-cluster-title">
        <Title order={3} size="h5" mb="xs" id="about-cluster-title">
          {t('about.cluster.title')}
        </Title>
        <QueryState query={cluster}>{(data) => <ClusterOverview cluster={data} now={cluster.dataUpdatedAt || Date.now()} timeZone={timeZone} />}</QueryState>
      </Card>
    </Page>
  );
}

/** Memory and the runtime status of each feature (scheduler lock included): what an operator looks at, apart from About. */
export function SystemStatusPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const memory = useMemoryQuery();
  const runtime = useRuntimeQuery();
  return (
    <Page title={t('about.systemTitle')}>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('about.memory')}
        </Title>
        {memory.isPending ? (
          <LoadingState rows={2} />
        ) : memory.error || !memory.data ? (
          <ErrorState error={memory.error} onRetry={() => void memory.refetch()} />
        ) : (
          <Stack gap={4}>
            <Text size="sm">{t('about.rss', { value: formatBytes(memory.data.current.rss_bytes) })}</Text>
            <Text size="sm">{t('about.heap', { used: formatBytes(memory.data.current.heap_used_bytes), total: formatBytes(memory.data.current.heap_total_bytes) })}</Text>
            <Text size="sm">{t('about.peak', { value: formatBytes(memory.data.peak_rss_bytes) })}</Text>
          </Stack>
        )}
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('about.runtime')}
        </Title>
        <QueryState query={runtime}>
          {(data) => (
            <Stack gap="sm">
              <Text size="sm">
                {t('about.runtimeLine', { driver: data.database_driver === 'postgres' ? 'PostgreSQL' : 'SQLite', pid: data.pid, uptime: formatDuration(data.uptime_seconds), started: formatDateTime(data.started_at, timeZone) })}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
                {Object.entries(data.components).map(([name, component]) => {
                  const title = t(`about.components.${name}`, { defaultValue: name });
                  return (
                    <Paper key={name} withBorder p="sm" component="section" aria-label={title}>
                      <Group justify="space-between" wrap="nowrap" gap="xs">
                        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {title}
                        </Text>
                        <Badge color={STATE_COLOR[component.state] ?? 'gray'} variant="light" style={{ flexShrink: 0 }}>
                          {t(`about.states.${component.state}`, { defaultValue: component.state })}
                        </Badge>
                      </Group>
                      <RuntimeDetails details={component.details ?? {}} timeZone={timeZone} />
                    </Paper>
                  );
                })}
              </SimpleGrid>
            </Stack>
          )}
        </QueryState>
      </Card>
    </Page>
  );
}
