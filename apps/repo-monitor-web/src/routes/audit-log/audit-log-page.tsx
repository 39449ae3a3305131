import { Code, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, Page, useUrlParams } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';

const PER_PAGE = 50;
type Entry = Schemas['AuditLogItemDto'];

/** A code the console has no name for yet, in words ("repository.archived" → "repository archived"). */
export function actionWords(action: string): string {
  return action.replace(/[._]+/g, ' ').trim();
}

/** Admin actions, newest first, paged by the server (page in the URL). */
export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const [params, setParams] = useUrlParams();
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const log = useQuery({
    queryKey: ['audit-log', page],
    queryFn: () => unwrap(api.GET('/api/v1/audit-log', { params: { query: { page, per_page: PER_PAGE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  const actionLabel = (action: string) => {
    const key = `auditLog.actions.${action.replace(/\./g, '__')}`;
    return i18n.exists(key) ? t(key) : actionWords(action);
  };
  return (
    <Page title={t('auditLog.title')}>
      <DataTable<Entry>
        caption={t('auditLog.caption')}
        rows={log.data?.items}
        rowKey={(row) => String(row.id)}
        loading={log.isPending}
        error={log.isError && !log.data ? log.error : undefined}
        onRetry={() => void log.refetch()}
        titleColumn="action"
        empty={<EmptyState title={t('auditLog.empty')} />}
        paging={log.data ? { kind: 'pages', page, pageSize: PER_PAGE, total: log.data.total, onPage: (next) => setParams(next > 1 ? { page: String(next) } : {}) } : undefined}
        columns={[
          { key: 'action', header: t('auditLog.action'), render: (row) => actionLabel(row.action) },
          { key: 'time', header: t('auditLog.time'), render: (row) => formatDateTime(row.created_at, timeZone) },
          { key: 'actor', header: t('auditLog.actor'), render: (row) => (row.actor === 'system' ? t('auditLog.system') : row.actor) },
          { key: 'target', header: t('auditLog.target'), render: (row) => row.target ?? '—' },
          {
            key: 'details',
            header: t('auditLog.details'),
            render: (row) =>
              row.details && Object.keys(row.details).length ? (
                <Code style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{JSON.stringify(row.details)}</Code>
              ) : (
                <Text span c="dimmed">
                  —
                </Text>
              ),
          },
          { key: 'ip', header: t('auditLog.ip'), render: (row) => row.client_ip ?? '—' },
        ]}
      />
    </Page>
  );
}
