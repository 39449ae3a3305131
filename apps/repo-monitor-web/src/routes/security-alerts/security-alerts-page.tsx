import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmAction, DataTable, EmptyState, formatDateTime, OutsideLink, Page, toast, useUrlFilter } from '@shared/web-ui';
import { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import {
  ALERT_KINDS,
  ALERT_SEVERITIES,
  ALERT_STATES,
  alertFilterFromParams,
  alertFilterToParams,
  alertQuery,
  ALERTS_PER_PAGE,
  isAlertFiltered,
  known,
  SecurityAlertFilter,
} from './security-alert-filter';

/** The list refreshes itself this often while open; the page, filters and scroll position stay. */
export const SECURITY_ALERTS_REFRESH_MS = 15_000;

type Alert = Schemas['SecurityAlertDto'];

const SEVERITY_COLOR: Record<string, string> = { critical: 'red', high: 'orange', error: 'red', medium: 'yellow', warning: 'yellow', low: 'gray', note: 'gray' };
const STATE_COLOR: Record<string, string> = { open: 'red', fixed: 'green', resolved: 'green', closed: 'gray', dismissed: 'gray', auto_dismissed: 'gray' };

/** Dependabot, code scanning and secret scanning alerts: server-paged, filtered in the URL, each one ignorable (no more notifications) and back. */
export function SecurityAlertsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { filter, key: paramsKey, draft, field, go, clear } = useUrlFilter(alertFilterFromParams, alertFilterToParams);
  const timeZone = useTimeZone();
  const alerts = useQuery({
    queryKey: ['security-alerts', paramsKey],
    queryFn: () => unwrap(api.GET('/api/v1/security-alerts', { params: { query: alertQuery(filter) } })),
    refetchInterval: SECURITY_ALERTS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const repositories = useQuery({ queryKey: ['repositories', 'all'], queryFn: () => unwrap(api.GET('/api/v1/repositories', { params: { query: { per_page: 100 } } })), staleTime: 60_000 });
  const repositoryName = new Map((repositories.data?.items ?? []).map((repository) => [repository.id, repository.full_name]));

  const setIgnored = useMutation({
    mutationFn: ({ alert, ignored }: { alert: Alert; ignored: boolean }) =>
      unwrap(api.PATCH('/api/v1/security-alerts/{id}', { params: { path: { id: alert.id } }, body: { ignored } })),
    onSuccess: (alert) => {
      toast.success(t(alert.ignored ? 'securityAlerts.ignored' : 'securityAlerts.unignored', { number: alert.number }));
      void queryClient.invalidateQueries({ queryKey: ['security-alerts'] });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
    onError: (error) => toast.error(error),
  });
  const ignore = async (alert: Alert) => {
    const confirmed = await confirmAction({
      title: t('securityAlerts.ignoreTitle'),
      message: t('securityAlerts.ignoreMessage', { number: alert.number, summary: alert.summary }),
      confirmLabel: t('securityAlerts.ignore'),
      cancelLabel: t('common.cancel'),
      danger: true,
    });
    if (confirmed) setIgnored.mutate({ alert, ignored: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ ...draft, q: draft.q.trim(), page: 1 });
  };
  const filtered = isAlertFiltered(filter);
  const stateLabel = (state: string) => (known(ALERT_STATES, state) ? t(`securityAlerts.states.${state}`) : t('securityAlerts.states.other', { value: state }));
  const severityLabel = (severity: string | null) =>
    severity === null ? t('securityAlerts.severities.none') : known(ALERT_SEVERITIES, severity) ? t(`securityAlerts.severities.${severity}`) : t('securityAlerts.severities.other', { value: severity });
  const busy = (alert: Alert) => setIgnored.isPending && setIgnored.variables?.alert.id === alert.id;

  return (
    <Page title={t('securityAlerts.title')}>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
            <TextInput label={t('securityAlerts.search')} type="search" value={draft.q} maxLength={200} onChange={(event) => field('q', event.currentTarget.value)} />
            <NativeSelect
              label={t('securityAlerts.kind')}
              value={draft.kind}
              onChange={(event) => field('kind', event.currentTarget.value as SecurityAlertFilter['kind'])}
              data={[{ value: '', label: t('securityAlerts.anyKind') }, ...ALERT_KINDS.map((kind) => ({ value: kind, label: t(`securityAlerts.kinds.${kind}`) }))]}
            />
            <NativeSelect
              label={t('securityAlerts.state')}
              value={draft.state}
              onChange={(event) => field('state', event.currentTarget.value as SecurityAlertFilter['state'])}
              data={[{ value: '', label: t('securityAlerts.anyState') }, ...ALERT_STATES.map((state) => ({ value: state, label: t(`securityAlerts.states.${state}`) }))]}
            />
            <NativeSelect
              label={t('securityAlerts.severity')}
              value={draft.severity}
              onChange={(event) => field('severity', event.currentTarget.value as SecurityAlertFilter['severity'])}
              data={[{ value: '', label: t('securityAlerts.anySeverity') }, ...ALERT_SEVERITIES.map((severity) => ({ value: severity, label: t(`securityAlerts.severities.${severity}`) }))]}
            />
            <NativeSelect
              label={t('securityAlerts.ignoredFilter')}
              value={draft.ignored}
              onChange={(event) => field('ignored', event.currentTarget.value as SecurityAlertFilter['ignored'])}
              data={[
                { value: '', label: t('securityAlerts.anyIgnored') },
                { value: 'no', label: t('securityAlerts.onlyWatched') },
                { value: 'yes', label: t('securityAlerts.onlyIgnored') },
              ]}
            />
            <NativeSelect
              label={t('securityAlerts.repository')}
              value={draft.repositoryId ? String(draft.repositoryId) : ''}
              onChange={(event) => field('repositoryId', event.currentTarget.value ? Number(event.currentTarget.value) : null)}
              data={[{ value: '', label: t('securityAlerts.anyRepository') }, ...(repositories.data?.items ?? []).map((repository) => ({ value: String(repository.id), label: repository.full_name }))]}
            />
          </SimpleGrid>
          <Group gap="xs">
            <Button type="submit">{t('securityAlerts.apply')}</Button>
            {filtered ? (
              <Button variant="default" onClick={clear}>
                {t('securityAlerts.clear')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      <DataTable<Alert>
        caption={t('securityAlerts.caption')}
        rows={alerts.data?.items}
        rowKey={(row) => String(row.id)}
        loading={alerts.isPending}
        error={alerts.isError && !alerts.data ? alerts.error : undefined}
        onRetry={() => void alerts.refetch()}
        empty={<EmptyState description={filtered ? t('securityAlerts.empty') : t('securityAlerts.emptyAll')} />}
        titleColumn="alert"
        paging={
          alerts.data
            ? { kind: 'pages', page: alerts.data.page, pageSize: ALERTS_PER_PAGE, total: alerts.data.total, onPage: (page) => go({ ...filter, page }) }
            : undefined
        }
        columns={[
          {
            key: 'alert',
            header: t('securityAlerts.columns.alert'),
            render: (row) => (
              <OutsideLink href={row.html_url} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {`#${row.number} ${row.summary}`}
              </OutsideLink>
            ),
          },
          { key: 'kind', header: t('securityAlerts.columns.kind'), render: (row) => t(`securityAlerts.kinds.${row.kind}`) },
          {
            key: 'severity',
            header: t('securityAlerts.columns.severity'),
            render: (row) => (
              <Badge variant="light" color={(row.severity && SEVERITY_COLOR[row.severity]) || 'gray'}>
                {severityLabel(row.severity)}
              </Badge>
            ),
          },
          {
            key: 'state',
            header: t('securityAlerts.columns.state'),
            render: (row) => (
              <Group gap={4}>
                <Badge variant="light" color={STATE_COLOR[row.state] ?? 'gray'}>
                  {stateLabel(row.state)}
                </Badge>
                {row.ignored ? (
                  <Badge variant="outline" color="gray">
                    {t('securityAlerts.ignoredBadge')}
                  </Badge>
                ) : null}
              </Group>
            ),
          },
          { key: 'repository', header: t('securityAlerts.columns.repository'), render: (row) => repositoryName.get(row.repository_id) ?? `#${row.repository_id}` },
          { key: 'updated', header: t('securityAlerts.columns.updated'), render: (row) => formatDateTime(row.updated_at, timeZone) },
          {
            key: 'actions',
            header: t('securityAlerts.columns.actions'),
            render: (row) =>
              row.ignored ? (
                <Button size="xs" variant="default" loading={busy(row)} aria-label={t('securityAlerts.unignoreLabel', { number: row.number })} onClick={() => setIgnored.mutate({ alert: row, ignored: false })}>
                  {t('securityAlerts.unignore')}
                </Button>
              ) : (
                <Button size="xs" variant="light" color="red" loading={busy(row)} aria-label={t('securityAlerts.ignoreLabel', { number: row.number })} onClick={() => void ignore(row)}>
                  {t('securityAlerts.ignore')}
                </Button>
              ),
          },
        ]}
      />
    </Page>
  );
}
