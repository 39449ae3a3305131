import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, Page, useUrlParams } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';

const PER_PAGE = 50;
type Entry = Schemas['AuditLogItemDto'];

/** The families of actions the filter offers (the part of an action before its dot). */
export const ACTION_FAMILIES = ['auth', 'admin', 'system_settings', 'github_app', 'ai_settings', 'ai_review_settings', 'digest', 'notification_channel', 'notification_rule', 'notification_rules', 'notification_template', 'redelivery'] as const;

/** A code the console has no name for yet, in words ("repository.archived" → "repository archived"). */
export function actionWords(action: string): string {
  return action.replace(/[._]+/g, ' ').trim();
}

/** The audit log's filters as they live in the URL. */
export function auditFilterFromParams(params: URLSearchParams): { page: number; action: string; actor: string } {
  const page = Number(params.get('page'));
  const action = params.get('action') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    action: (ACTION_FAMILIES as readonly string[]).includes(action) ? action : '',
    actor: (params.get('actor') ?? '').trim().slice(0, 64),
  };
}

/** Admin actions, newest first, in words, narrowed by kind of action and by who acted (all in the URL). */
export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const [params, setParams] = useUrlParams();
  const filter = auditFilterFromParams(params);
  const [actorDraft, setActorDraft] = useState(filter.actor);
  const go = (next: { page?: number; action?: string; actor?: string }) => {
    const merged = { ...filter, page: 1, ...next };
    const query: Record<string, string> = {};
    if (merged.action) query['action'] = merged.action;
    if (merged.actor) query['actor'] = merged.actor;
    if (merged.page > 1) query['page'] = String(merged.page);
    setParams(query);
  };
  const apiQuery = { page: filter.page, per_page: PER_PAGE, ...(filter.action ? { action: filter.action } : {}), ...(filter.actor ? { actor: filter.actor } : {}) };
  const log = useQuery({
    queryKey: ['audit-log', apiQuery],
    queryFn: () => unwrap(api.GET('/api/v1/audit-log', { params: { query: apiQuery } })),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  // Channel actions name the channel by its id: shown by its name where the channel still exists.
  const channels = useQuery({
    queryKey: ['notification-channels', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/notification-channels', { params: { query: { page: 1, per_page: 100 } } })),
    staleTime: 60_000,
  });
  const rules = useQuery({ queryKey: ['notification-rules'], queryFn: () => unwrap(api.GET('/api/v1/notification-rules')), staleTime: 60_000 });
  const channelName = new Map((channels.data?.items ?? []).map((channel) => [channel.id, channel.name]));
  const ruleName = new Map((rules.data?.items ?? []).map((rule) => [rule.id, rule.name]));
  const actionLabel = (action: string) => {
    const key = `auditLog.actions.${action.replace(/\./g, '__')}`;
    return i18n.exists(key) ? t(key) : actionWords(action);
  };
  const detailValue = (value: unknown, key?: string): string => {
    if (typeof value === 'boolean') return value ? t('auditLog.yes') : t('auditLog.no');
    if (Array.isArray(value)) return value.map((item) => detailValue(item, key)).join(', ');
    if (typeof value === 'string') {
      if (key === 'fields' && i18n.exists(`auditLog.fieldNames.${value}`)) return t(`auditLog.fieldNames.${value}`);
      if (key === 'part' && i18n.exists(`auditLog.parts.${value}`)) return t(`auditLog.parts.${value}`);
      if (key === 'period' && i18n.exists(`auditLog.periods.${value}`)) return t(`auditLog.periods.${value}`);
      return value.replace(/_/g, ' ');
    }
    return value === null || value === undefined ? '—' : String(value);
  };
  // A template's channel or rule is its target (named below), not a detail to repeat as an id.
  const shownDetails = (row: Entry) => Object.entries(row.details ?? {}).filter(([key]) => !(row.action.startsWith('notification_template.') && (key === 'channel_id' || key === 'rule_id')));
  const detailKey = (key: string) => (i18n.exists(`auditLog.detailKeys.${key}`) ? t(`auditLog.detailKeys.${key}`) : key.replace(/_/g, ' '));
  const target = (row: Entry) => {
    if (!row.target) return '—';
    if (row.action.startsWith('notification_channel.')) {
      const name = channelName.get(row.target) ?? (typeof row.details?.['name'] === 'string' ? row.details['name'] : undefined);
      return name ? t('auditLog.channelTarget', { name }) : row.target;
    }
    if (row.action.startsWith('notification_rule.')) {
      const name = ruleName.get(row.target) ?? (typeof row.details?.['name'] === 'string' ? row.details['name'] : undefined);
      return name ? t('auditLog.ruleTarget', { name }) : row.target;
    }
    if (row.action.startsWith('notification_template.')) {
      const channelId = row.details?.['channel_id'];
      const ruleId = row.details?.['rule_id'];
      if (typeof channelId === 'string' && channelName.has(channelId)) return t('auditLog.channelTarget', { name: channelName.get(channelId) });
      if (typeof ruleId === 'string' && ruleName.has(ruleId)) return t('auditLog.ruleTarget', { name: ruleName.get(ruleId) });
    }
    return row.target;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ actor: actorDraft.trim() });
  };
  const filtered = Boolean(filter.action || filter.actor);
  return (
    <Page title={t('auditLog.title')}>
      <form onSubmit={submit} aria-label={t('auditLog.title')}>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <NativeSelect
            label={t('auditLog.filterAction')}
            value={filter.action}
            onChange={(event) => go({ action: event.currentTarget.value })}
            data={[{ value: '', label: t('auditLog.anyAction') }, ...ACTION_FAMILIES.map((family) => ({ value: family, label: t(`auditLog.families.${family}`) }))]}
            style={{ flex: '1 1 12rem', maxWidth: '20rem' }}
          />
          <TextInput label={t('auditLog.filterActor')} value={actorDraft} maxLength={64} onChange={(event) => setActorDraft(event.currentTarget.value)} style={{ flex: '1 1 10rem', maxWidth: '16rem' }} />
          <Button type="submit">{t('auditLog.apply')}</Button>
          {filtered ? (
            <Button
              variant="subtle"
              onClick={() => {
                setActorDraft('');
                setParams({});
              }}
            >
              {t('auditLog.clear')}
            </Button>
          ) : null}
        </Group>
      </form>
      <DataTable<Entry>
        caption={t('auditLog.caption')}
        rows={log.data?.items}
        rowKey={(row) => String(row.id)}
        loading={log.isPending}
        error={log.isError && !log.data ? log.error : undefined}
        onRetry={() => void log.refetch()}
        titleColumn="action"
        empty={<EmptyState title={filtered ? t('auditLog.emptyFiltered') : t('auditLog.empty')} />}
        paging={log.data ? { kind: 'pages', page: filter.page, pageSize: PER_PAGE, total: log.data.total, onPage: (next) => go({ page: next, action: filter.action, actor: filter.actor }) } : undefined}
        columns={[
          { key: 'action', header: t('auditLog.action'), render: (row) => actionLabel(row.action) },
          { key: 'time', header: t('auditLog.time'), render: (row) => formatDateTime(row.created_at, timeZone) },
          { key: 'actor', header: t('auditLog.actor'), render: (row) => (row.actor === 'system' ? t('auditLog.system') : row.actor) },
          { key: 'target', header: t('auditLog.target'), render: (row) => target(row) },
          {
            key: 'details',
            header: t('auditLog.details'),
            render: (row) =>
              shownDetails(row).length ? (
                <Stack gap={0}>
                  {shownDetails(row).map(([key, value]) => (
                    <Text key={key} span size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {detailKey(key)}: {detailValue(value, key)}
                    </Text>
                  ))}
                </Stack>
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
