import { Anchor, Badge, Button, Card, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EmptyState, formatDateTime, OutsideLink, Page, QueryState } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { useEventTitle } from '../../components/event-title';
import { Link } from 'react-router';
import { api, Schemas, unwrap } from '../../api/client';
import { StackedBarChart } from './bar-chart';

/** The dashboard refreshes itself this often while open (events and deliveries arrive from GitHub). */
export const DASHBOARD_REFRESH_MS = 15_000;

/** Where each item of the onboarding checklist is fixed. */
export const CHECKLIST_FIX: Record<Schemas['ChecklistEntryDto']['key'], string> = {
  github_app_credentials: '/github-app',
  inbound_webhook_secret: '/github-app',
  installation: '/github-app',
  repository: '/repositories',
  channel_tested: '/channels',
};

const CATEGORIES = ['security', 'actions', 'issue', 'pr', 'other'] as const;
const CATEGORY_COLORS: Record<(typeof CATEGORIES)[number], string> = {
  security: 'var(--mantine-color-red-6)',
  actions: 'var(--mantine-color-violet-6)',
  issue: 'var(--mantine-color-teal-6)',
  pr: 'var(--mantine-color-blue-6)',
  other: 'var(--mantine-color-gray-6)',
};

export function useDashboard() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: () => unwrap(api.GET('/api/v1/dashboard')),
    refetchInterval: DASHBOARD_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  return (
    <Page title={t('dashboard.title')}>
      <QueryState query={dashboard} loadingRows={8}>
        {(data) => (
          <Stack gap="md">
            {data.setup_complete ? null : <Checklist entries={data.checklist} />}
            <Tiles tiles={data.tiles} />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <Paper withBorder p="md">
                <StackedBarChart
                  title={t('dashboard.eventsChart')}
                  dayLabel={t('dashboard.day')}
                  noData={t('dashboard.noEvents14')}
                  days={data.events_per_day.map((day) => ({ date: day.date, values: day.by_category as Record<string, number> }))}
                  series={CATEGORIES.map((category) => ({ key: category, label: t(`dashboard.category.${category}`), color: CATEGORY_COLORS[category] }))}
                />
              </Paper>
              <Paper withBorder p="md">
                <StackedBarChart
                  title={t('dashboard.notificationsChart')}
                  dayLabel={t('dashboard.day')}
                  noData={t('dashboard.noNotifications14')}
                  days={data.notifications_per_day.map((day) => ({ date: day.date, values: { sent: day.sent, failed: day.failed } }))}
                  series={[
                    { key: 'sent', label: t('dashboard.sent'), color: 'var(--mantine-color-green-7)' },
                    { key: 'failed', label: t('dashboard.failed'), color: 'var(--mantine-color-red-7)' },
                  ]}
                />
              </Paper>
            </SimpleGrid>
            <Outbox outbox={data.outbox} timeZone={data.time_zone} />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <RecentEvents events={data.recent_events} timeZone={data.time_zone} />
              <RecentDeliveries deliveries={data.recent_deliveries} timeZone={data.time_zone} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('dashboard.updated', { time: formatDateTime(data.generated_at, data.time_zone) })}
            </Text>
          </Stack>
        )}
      </QueryState>
    </Page>
  );
}

function Checklist({ entries }: { entries: Schemas['ChecklistEntryDto'][] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="xs">
        {t('dashboard.checklist.title')}
      </Title>
      <List spacing="xs" listStyleType="none" pl={0}>
        {entries.map((entry) => (
          <List.Item
            key={entry.key}
            icon={
              <ThemeIcon size={22} radius="xl" color={entry.done ? 'green' : 'gray'} variant={entry.done ? 'filled' : 'light'} aria-hidden="true">
                {entry.done ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
              </ThemeIcon>
            }
          >
            <Group gap="xs" wrap="wrap">
              <Text size="sm">{t(`dashboard.checklist.${entry.key}`)}</Text>
              <Text size="xs" c="dimmed">
                ({entry.done ? t('dashboard.checklist.done') : t('dashboard.checklist.todo')})
              </Text>
              {entry.done ? null : (
                <Anchor component={Link} to={CHECKLIST_FIX[entry.key]} size="sm" aria-label={`${t('dashboard.checklist.fix')}: ${t(`dashboard.checklist.${entry.key}`)}`}>
                  {t('dashboard.checklist.fix')}
                </Anchor>
              )}
            </Group>
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}

function Tiles({ tiles }: { tiles: Schemas['DashboardTilesDto'] }) {
  const { t } = useTranslation();
  const entries: { key: keyof Schemas['DashboardTilesDto']; to: string }[] = [
    { key: 'repositories', to: '/repositories' },
    { key: 'installations', to: '/github-app' },
    { key: 'open_issues', to: '/work-items' },
    { key: 'open_pull_requests', to: '/work-items' },
    { key: 'open_security_alerts', to: '/security-alerts' },
    { key: 'failed_workflow_runs', to: '/workflow-runs' },
    { key: 'enabled_channels', to: '/channels' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm">
      {entries.map((entry) => (
        <Card key={entry.key} withBorder padding="sm" component={Link} to={entry.to}>
          <Text size="xs" c="dimmed">
            {t(`dashboard.tiles.${entry.key}`)}
          </Text>
          <Text fw={700} size="xl">
            {tiles[entry.key]}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function Outbox({ outbox, timeZone }: { outbox: Schemas['OutboxHealthDto']; timeZone: string }) {
  const { t } = useTranslation();
  const quiet = outbox.pending === 0 && outbox.sending === 0 && outbox.dead === 0;
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={3} size="h5">
          {t('dashboard.outbox.title')}
        </Title>
        <Button component={Link} to="/outbox" variant="subtle" size="xs">
          {t('dashboard.outbox.open')}
        </Button>
      </Group>
      {quiet ? (
        <Text size="sm">{t('dashboard.outbox.none')}</Text>
      ) : (
        <Stack gap={4}>
          <Group gap="xs">
            <Badge color="blue" variant="light">
              {t('dashboard.outbox.pending')}: {outbox.pending}
            </Badge>
            <Badge color="cyan" variant="light">
              {t('dashboard.outbox.sending')}: {outbox.sending}
            </Badge>
            <Badge color={outbox.dead > 0 ? 'red' : 'gray'} variant="light">
              {t('dashboard.outbox.dead')}: {outbox.dead}
            </Badge>
          </Group>
          {outbox.oldest_pending_at ? (
            <Text size="xs" c="dimmed">
              {t('dashboard.outbox.oldest', { time: formatDateTime(outbox.oldest_pending_at, timeZone) })}
            </Text>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}

function RecentEvents({ events, timeZone }: { events: Schemas['EventDto'][]; timeZone: string }) {
  const { t } = useTranslation();
  const titleOf = useEventTitle();
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={3} size="h5">
          {t('dashboard.recentEvents')}
        </Title>
        <Button component={Link} to="/events" variant="subtle" size="xs">
          {t('dashboard.allEvents')}
        </Button>
      </Group>
      {events.length === 0 ? (
        <EmptyState description={t('dashboard.noEvents')} />
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {events.map((event) => (
            <li key={event.id}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                  {t(`dashboard.category.${event.category}`)}
                </Badge>
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <OutsideLink href={event.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {titleOf(event)}
                  </OutsideLink>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(event.occurred_at, timeZone)}
                    {event.notification !== 'not_notified' ? ` · ${t(`dashboard.notification.${event.notification}`)}` : ''}
                  </Text>
                </Stack>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function RecentDeliveries({ deliveries, timeZone }: { deliveries: Schemas['DeliverySummaryDto'][]; timeZone: string }) {
  const { t } = useTranslation();
  const color = { accepted: 'blue', processed: 'green', failed: 'red', duplicate: 'gray' } as const;
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="xs">
        {t('dashboard.recentDeliveries')}
      </Title>
      {deliveries.length === 0 ? (
        <EmptyState description={t('dashboard.noDeliveries')} />
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {deliveries.map((delivery) => (
            <li key={delivery.id}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="light" color={color[delivery.status]} style={{ flexShrink: 0 }}>
                  {t(`dashboard.deliveryStatus.${delivery.status}`)}
                </Badge>
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {[delivery.event, delivery.action].filter(Boolean).join(' · ')}
                    {delivery.repository ? ` — ${delivery.repository}` : ''}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(delivery.received_at, timeZone)}
                  </Text>
                  {delivery.last_error ? (
                    <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
                      {delivery.last_error}
                    </Text>
                  ) : null}
                </Stack>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
