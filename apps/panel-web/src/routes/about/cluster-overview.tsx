import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatDateTime } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { formatRelativeTime } from './format';

type Cluster = Schemas['ClusterDto'];

/**
 * The replicas sharing this database (issue 31): this replica, each live replica with its address,
 * version, last heartbeat, leadership and accounts, and the accounts between owners. On SQLite (one
 * instance) one plain line says so instead.
 */
export function ClusterOverview({ cluster, now, timeZone }: { cluster: Cluster; now: number; timeZone: string | undefined }) {
  const { t, i18n } = useTranslation();
  if (!cluster.enabled) return <Text size="sm">{t('about.cluster.single', { count: cluster.accounts.length })}</Text>;
  const unowned = cluster.accounts.filter((account) => account.owner === null).map((account) => account.name);
  return (
    <Stack gap="sm">
      <Text size="sm">{t('about.cluster.summary', { replicas: cluster.replicas.length, accounts: cluster.accounts.length, replica: cluster.replica_id })}</Text>
      {unowned.length > 0 ? (
        <Alert color="yellow" variant="light" title={t('about.cluster.betweenOwners', { count: unowned.length })}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {unowned.join(', ')}
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            {t('about.cluster.betweenOwnersHint')}
          </Text>
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {cluster.replicas.map((replica) => (
          <Paper key={replica.id} withBorder p="sm" component="section" aria-label={t('about.cluster.replicaLabel', { id: replica.id })}>
            <Stack gap={4}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {replica.id}
                </Text>
                <Group gap={4}>
                  {replica.id === cluster.replica_id ? (
                    <Badge color="blue" variant="light">
                      {t('about.cluster.thisReplica')}
                    </Badge>
                  ) : null}
                  {replica.leader ? (
                    <Badge color="grape" variant="light">
                      {t('about.cluster.leader')}
                    </Badge>
                  ) : null}
                </Group>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('about.cluster.address', { address: replica.address, version: replica.version })}
              </Text>
              <Text size="sm">
                {t('about.cluster.heartbeat')}{' '}
                <time dateTime={replica.last_heartbeat_at} title={formatDateTime(replica.last_heartbeat_at, timeZone)}>
                  {formatRelativeTime(replica.last_heartbeat_at, now, i18n.language)}
                </time>
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('about.cluster.accounts', { count: replica.accounts.length })} {replica.accounts.length ? replica.accounts.join(', ') : t('about.noneListed')}
              </Text>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
