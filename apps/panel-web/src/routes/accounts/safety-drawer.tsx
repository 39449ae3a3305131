import { Alert, Badge, Button, Drawer, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EmptyState, formatDateTime, QueryState, toast } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';

const safetyKey = (accountName: string) => ['account-safety', accountName];

export const safetyApi = {
  get: (accountName: string) => unwrap(api.GET('/api/accounts/{account_name}/safety', { params: { path: { account_name: accountName } } })),
  resume: (accountName: string) => unwrap(api.POST('/api/accounts/{account_name}/safety/resume', { params: { path: { account_name: accountName } } })),
};

/** An account's safety budget (actions this minute and today), its FloodWaits and pause, with Resume. */
export function SafetyDrawer({ accountName, onClose }: { accountName: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer opened={accountName !== null} onClose={onClose} position="right" size={phone ? '100%' : 'md'} title={accountName ? t('accounts.safetyTitle', { name: accountName }) : ''}>
      {accountName ? <SafetyPanel accountName={accountName} /> : null}
    </Drawer>
  );
}

function SafetyPanel({ accountName }: { accountName: string }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const safety = useQuery({ queryKey: safetyKey(accountName), queryFn: () => safetyApi.get(accountName), refetchInterval: 10_000 });
  const resume = useMutation({
    mutationFn: () => safetyApi.resume(accountName),
    onSuccess: (state) => {
      queryClient.setQueryData(safetyKey(accountName), state);
      toast.success(t('accounts.resumed', { name: accountName }));
    },
    onError: (error) => toast.error(error),
  });
  return (
    <QueryState query={safety}>
      {(state) => (
        <Stack gap="md">
          {state.paused ? (
            <Alert color="red" title={t('accounts.pausedTitle')}>
              <Stack gap="xs">
                <Text size="sm">{t('accounts.pausedText', { time: state.paused_at ? formatDateTime(state.paused_at, timeZone) : '', reason: state.pause_reason ?? '' })}</Text>
                <Group>
                  <Button loading={resume.isPending} onClick={() => resume.mutate()}>
                    {t('accounts.resume')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : (
            <Badge color="teal" variant="light" w="fit-content">
              {t('accounts.running')}
            </Badge>
          )}
          <Budget label={t('accounts.budgetMinute')} used={state.minute_used} limit={state.minute_limit} />
          <Budget label={t('accounts.budgetDay')} used={state.day_used} limit={state.day_limit} />
          <Text size="sm" c="dimmed">
            {t('accounts.budgetOther', { refused: state.refused_today, calls: state.calls_today })}
          </Text>
          {state.flood_wait_until ? <Text size="sm">{t('accounts.floodUntil', { time: formatDateTime(state.flood_wait_until, timeZone) })}</Text> : null}
          <Text fw={600} size="sm">
            {t('accounts.floodWaits')}
          </Text>
          {state.flood_waits.length === 0 ? (
            <EmptyState title={t('accounts.noFloodWaits')} />
          ) : (
            <Table.ScrollContainer minWidth={280}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('accounts.floodAt')}</Table.Th>
                    <Table.Th>{t('accounts.floodSeconds')}</Table.Th>
                    <Table.Th>{t('accounts.floodCall')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {state.flood_waits.map((flood) => (
                    <Table.Tr key={`${flood.at}-${flood.method}`}>
                      <Table.Td>{formatDateTime(flood.at, timeZone)}</Table.Td>
                      <Table.Td>{flood.seconds}</Table.Td>
                      <Table.Td>{flood.method}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </QueryState>
  );
}

function Budget({ label, used, limit }: { label: string; used: number; limit: number }) {
  const { t } = useTranslation();
  const share = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm">{label}</Text>
        <Text size="sm" c="dimmed">
          {t('accounts.budgetUse', { used, limit })}
        </Text>
      </Group>
      <Progress value={share} color={share >= 100 ? 'red' : share >= 80 ? 'yellow' : 'teal'} aria-label={`${label}: ${t('accounts.budgetUse', { used, limit })}`} />
    </Stack>
  );
}
