import { NativeSelect, Stack, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, Page, useUrlParams } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { WrappingBadge } from '../../components/wrapping-badge';

const PER_PAGE = 25;
const REFRESH_MS = 15_000;

type Delivery = Schemas['WebhookDeliveryDto'];
type Rejection = Schemas['WebhookRejectionDto'];
type Reason = Rejection['reason'];

export const REJECTION_REASONS: readonly Reason[] = [
  'no_secret',
  'bad_signature',
  'too_many_bad_signatures',
  'too_large',
  'missing_headers',
  'malformed_headers',
  'malformed_body',
  'unsupported_content_type',
  'unavailable',
  'other',
];

const STATUS_COLOR: Record<Delivery['status'], string> = { accepted: 'blue', processed: 'teal', failed: 'red', duplicate: 'gray' };

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

function reasonFrom(params: URLSearchParams): Reason | undefined {
  const value = params.get('reason');
  return (REJECTION_REASONS as readonly string[]).includes(value ?? '') ? (value as Reason) : undefined;
}

/**
 * Webhook deliveries: those accepted (with what processing made of them) and the requests refused,
 * each with its reason and what to fix: what a person wiring up a GitHub App needs to see.
 */
export function DeliveriesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useUrlParams();
  const view = params.get('view') === 'rejected' ? 'rejected' : 'accepted';
  const go = (next: Record<string, string>) => setParams(new URLSearchParams(Object.entries(next).filter(([, value]) => value !== '')));
  return (
    <Page title={t('deliveries.title')}>
      <Text size="sm">{t('deliveries.intro')}</Text>
      <Tabs value={view} onChange={(value) => go({ view: value === 'rejected' ? 'rejected' : '' })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="accepted">{t('deliveries.tabAccepted')}</Tabs.Tab>
          <Tabs.Tab value="rejected">{t('deliveries.tabRejected')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="accepted" pt="sm">
          <AcceptedDeliveries page={pageFrom(params)} onPage={(page) => go({ page: page > 1 ? String(page) : '' })} />
        </Tabs.Panel>
        <Tabs.Panel value="rejected" pt="sm">
          <RejectedRequests
            page={pageFrom(params)}
            reason={reasonFrom(params)}
            onPage={(page) => go({ view: 'rejected', reason: reasonFrom(params) ?? '', page: page > 1 ? String(page) : '' })}
            onReason={(reason) => go({ view: 'rejected', reason: reason ?? '' })}
          />
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}

function AcceptedDeliveries({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const query = { page, per_page: PER_PAGE };
  const list = useQuery({
    queryKey: ['deliveries', 'accepted', query],
    queryFn: () => unwrap(api.GET('/api/v1/deliveries', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const data = list.data;
  return (
    <DataTable<Delivery>
      caption={t('deliveries.acceptedCaption')}
      rows={data?.items}
      rowKey={(row) => String(row.id)}
      loading={list.isPending || list.isPlaceholderData}
      error={list.isError && !data ? list.error : undefined}
      onRetry={() => void list.refetch()}
      titleColumn="delivery"
      empty={<EmptyState title={t('deliveries.emptyAccepted')} description={t('deliveries.emptyAcceptedBody')} />}
      paging={data ? { kind: 'pages', page, pageSize: PER_PAGE, total: data.total, onPage } : undefined}
      columns={[
        {
          key: 'delivery',
          header: t('deliveries.delivery'),
          render: (row) => (
            <Stack gap={0}>
              <Text span size="sm">
                {row.action ? `${row.event}.${row.action}` : row.event}
              </Text>
              <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {row.delivery_id}
              </Text>
            </Stack>
          ),
        },
        { key: 'repository', header: t('deliveries.repository'), render: (row) => row.repository_full_name ?? '—' },
        {
          key: 'status',
          header: t('deliveries.status'),
          render: (row) => (
            <Stack gap={2}>
              <WrappingBadge color={STATUS_COLOR[row.status]}>
                {t(`deliveries.statuses.${row.status}`)}
              </WrappingBadge>
              {!row.handled ? (
                <Text span size="xs" c="dimmed">
                  {t('deliveries.ignored')}
                </Text>
              ) : null}
              {row.last_error ? (
                <Text span size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
                  {t('deliveries.processingError', { error: row.last_error })} ({t('deliveries.attempts', { count: row.attempts })})
                </Text>
              ) : null}
            </Stack>
          ),
        },
        { key: 'received', header: t('deliveries.received'), render: (row) => formatDateTime(row.received_at, timeZone) },
      ]}
    />
  );
}

function RejectedRequests({ page, reason, onPage, onReason }: { page: number; reason: Reason | undefined; onPage: (page: number) => void; onReason: (reason: Reason | undefined) => void }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const query = { page, per_page: PER_PAGE, ...(reason ? { reason } : {}) };
  const list = useQuery({
    queryKey: ['deliveries', 'rejected', query],
    queryFn: () => unwrap(api.GET('/api/v1/deliveries/rejected', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const data = list.data;
  return (
    <Stack gap="sm">
      <NativeSelect
        label={t('deliveries.reason')}
        value={reason ?? ''}
        onChange={(event) => onReason(reasonFrom(new URLSearchParams({ reason: event.currentTarget.value })))}
        data={[{ value: '', label: t('deliveries.anyReason') }, ...REJECTION_REASONS.map((value) => ({ value, label: t(`deliveries.reasons.${value}`) }))]}
        style={{ maxWidth: '20rem' }}
      />
      <DataTable<Rejection>
        caption={t('deliveries.rejectedCaption')}
        rows={data?.items}
        rowKey={(row) => String(row.id)}
        loading={list.isPending || list.isPlaceholderData}
        error={list.isError && !data ? list.error : undefined}
        onRetry={() => void list.refetch()}
        titleColumn="reason"
        empty={<EmptyState title={t('deliveries.emptyRejected')} description={t('deliveries.emptyRejectedBody')} />}
        paging={data ? { kind: 'pages', page, pageSize: PER_PAGE, total: data.total, onPage } : undefined}
        columns={[
          {
            key: 'reason',
            header: t('deliveries.reason'),
            render: (row) => (
              <WrappingBadge color="red">
                {t(`deliveries.reasons.${row.reason}`)}
              </WrappingBadge>
            ),
          },
          {
            key: 'fix',
            header: t('deliveries.whatToFix'),
            render: (row) => (
              <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t(`deliveries.fixes.${row.reason}`)}
              </Text>
            ),
          },
          {
            key: 'delivery',
            header: t('deliveries.delivery'),
            render: (row) => (
              <Stack gap={0}>
                <Text span size="sm">
                  {row.event ?? '—'}
                </Text>
                {row.delivery_id ? (
                  <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {row.delivery_id}
                  </Text>
                ) : null}
              </Stack>
            ),
          },
          {
            key: 'sender',
            header: t('deliveries.sender'),
            render: (row) => (
              <Stack gap={0}>
                <Text span size="sm">
                  {row.remote_address ?? '—'}
                </Text>
                {row.user_agent ? (
                  <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {row.user_agent}
                  </Text>
                ) : null}
              </Stack>
            ),
          },
          { key: 'size', header: t('deliveries.size'), render: (row) => (row.body_bytes === null ? '—' : row.body_bytes < 1024 ? t('deliveries.byteCount', { count: row.body_bytes }) : t('deliveries.bytes', { value: (row.body_bytes / 1024).toFixed(1) })) },
          { key: 'received', header: t('deliveries.received'), render: (row) => formatDateTime(row.received_at, timeZone) },
        ]}
      />
    </Stack>
  );
}
