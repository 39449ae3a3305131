import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, Page, toast, useUrlParams } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';

const PER_PAGE = 25;
const REFRESH_MS = 15_000;

type Delivery = Schemas['RecoveredDeliveryDto'];

const STATUS_COLOR: Record<Delivery['status'], string> = { missing: 'orange', requested: 'blue', recovered: 'teal', given_up: 'red' };

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** Deliveries GitHub failed to bring here, what the redelivery check did about each, and a "check now" button. */
export function RecoveredDeliveriesPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const [params, setParams] = useUrlParams();
  const page = pageFrom(params);

  const query = { page, per_page: PER_PAGE };
  const list = useQuery({
    queryKey: ['recovered-deliveries', query],
    queryFn: () => unwrap(api.GET('/api/v1/recovered-deliveries', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const check = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/recovered-deliveries/check')),
    onSuccess: (result) => {
      if (result.skipped) toast.info(t(`recoveredDeliveries.skipped_${result.skipped}`));
      else toast.success(t('recoveredDeliveries.checked', { failed: result.failed, requested: result.requested, recovered: result.recovered }));
      void queryClient.invalidateQueries({ queryKey: ['recovered-deliveries'] });
    },
    onError: (error) => toast.error(error),
  });
  const data = list.data;
  const last = data?.last_sweep ?? null;
  const interval = data?.interval_seconds ?? 0;

  return (
    <Page title={t('recoveredDeliveries.title')}>
      <Stack gap={4}>
        <Text size="sm">{t('recoveredDeliveries.intro')}</Text>
        {data && data.enabled ? (
          <Text size="sm" c="dimmed">
            {interval >= 60 ? t('recoveredDeliveries.schedule', { minutes: Math.round(interval / 60) }) : t('recoveredDeliveries.scheduleSeconds', { seconds: interval })}
          </Text>
        ) : null}
        {data ? (
          <Text size="sm" c="dimmed">
            {!last
              ? t('recoveredDeliveries.noSweep')
              : last.error
                ? t('recoveredDeliveries.lastSweepFailed', { time: formatDateTime(last.finished_at, timeZone), error: last.error })
                : t('recoveredDeliveries.lastSweep', {
                    time: formatDateTime(last.finished_at, timeZone),
                    lookedAt: last.looked_at,
                    requested: last.requested,
                    recovered: last.recovered,
                    givenUp: last.given_up,
                  })}
          </Text>
        ) : null}
      </Stack>
      {data && !data.enabled ? (
        <EmptyState title={t('recoveredDeliveries.offTitle')} description={t('recoveredDeliveries.offBody')} />
      ) : (
        <>
          <Group>
            <Button onClick={() => check.mutate()} loading={check.isPending} disabled={!data}>
              {t('recoveredDeliveries.checkNow')}
            </Button>
          </Group>
          <DataTable<Delivery>
            caption={t('recoveredDeliveries.caption')}
            rows={data?.items}
            rowKey={(row) => row.guid}
            loading={list.isPending || list.isPlaceholderData}
            error={list.isError && !data ? list.error : undefined}
            onRetry={() => void list.refetch()}
            titleColumn="delivery"
            empty={<EmptyState title={t('recoveredDeliveries.empty')} description={t('recoveredDeliveries.emptyBody')} />}
            paging={data ? { kind: 'pages', page, pageSize: PER_PAGE, total: data.total, onPage: (next) => setParams(next > 1 ? new URLSearchParams({ page: String(next) }) : new URLSearchParams()) } : undefined}
            columns={[
              {
                key: 'delivery',
                header: t('recoveredDeliveries.delivery'),
                render: (row) => (
                  <Stack gap={0}>
                    <Text span size="sm">
                      {row.action ? `${row.event}.${row.action}` : row.event}
                    </Text>
                    <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {row.guid}
                    </Text>
                  </Stack>
                ),
              },
              {
                key: 'status',
                header: t('recoveredDeliveries.status'),
                render: (row) => (
                  <Badge variant="light" color={STATUS_COLOR[row.status]}>
                    {t(`recoveredDeliveries.status_${row.status}`)}
                  </Badge>
                ),
              },
              { key: 'first', header: t('recoveredDeliveries.firstAttempt'), render: (row) => formatDateTime(row.first_attempt_at, timeZone) },
              { key: 'requests', header: t('recoveredDeliveries.requests'), render: (row) => String(row.requests) },
              {
                key: 'reason',
                header: t('recoveredDeliveries.reason'),
                render: (row) => (
                  <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {row.reason ?? ''}
                  </Text>
                ),
              },
            ]}
          />
        </>
      )}
    </Page>
  );
}
