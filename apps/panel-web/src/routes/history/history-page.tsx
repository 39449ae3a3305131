import { Badge, Button, Drawer, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DataTable, EmptyState, formatDateTime, QueryState, useUrlParams } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { categoryLabel, runStateLabel, triggerLabel } from '../../components/codes';
import { useAccountListQuery, useTaskListQuery, useTimeZone } from '../../components/hooks';
import { Page } from '../../components/page';
import { OriginalText } from '../../components/original-text';
import { useRunText } from '../../components/run-text';
import { useRunQuery, useRunsQuery } from './history-api';

const PAGE_SIZE = 25;
const CATEGORIES = ['session_invalid', 'flood_wait', 'ai_timeout', 'ai_error', 'button_not_found', 'target_not_found', 'network_proxy', 'timeout', 'strong_failure', 'bot_refused', 'unconfirmed', 'safety_limit', 'unknown'] as const;
type Category = (typeof CATEGORIES)[number];
const FILTERS = ['account', 'task', 'status', 'failure_category', 'since', 'until'] as const;

/** The filter as kept in the URL (so a link from the dashboard opens it filtered). */
export function historyQuery(params: URLSearchParams) {
  const page = Math.max(1, Number(params.get('page')) || 1);
  const status = params.get('status');
  const category = params.get('failure_category');
  return {
    page,
    query: {
      account: params.get('account') || undefined,
      task: params.get('task') || undefined,
      status: status === 'success' || status === 'failure' ? (status as 'success' | 'failure') : undefined,
      failure_category: (CATEGORIES as readonly string[]).includes(category ?? '') ? (category as Category) : undefined,
      since: params.get('since') || undefined,
      until: params.get('until') || undefined,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
  };
}

/** Every finished run across tasks, filtered and paged by the server, with the step log of one. */
export function HistoryPage() {
  const { t } = useTranslation();
  const runText = useRunText();
  const timeZone = useTimeZone();
  const [params, setParams] = useUrlParams();
  const { page, query } = historyQuery(params);
  const runs = useRunsQuery(query);
  const accounts = useAccountListQuery();
  const tasks = useTaskListQuery();
  const openRun = params.get('run');
  const detail = useRunQuery(openRun);
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes) && !('run' in changes)) next.delete('page');
    setParams(next);
  };
  const select = (key: (typeof FILTERS)[number], label: string, options: { value: string; label: string }[]) => (
    <NativeSelect label={label} value={params.get(key) ?? ''} data={[{ value: '', label: t('common.all') }, ...options]} onChange={(event) => update({ [key]: event.currentTarget.value || undefined })} />
  );
  const filtered = FILTERS.some((key) => params.get(key));
  return (
    <Page title={t('history.title')}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} spacing="xs">
        {select('account', t('history.account'), (accounts.data?.accounts ?? []).map((account) => ({ value: account.account_name, label: account.account_name })))}
        {select('task', t('history.task'), (tasks.data?.tasks ?? []).map((task) => ({ value: task.name, label: task.name })))}
        {select('status', t('history.status'), [
          { value: 'success', label: t('history.success') },
          { value: 'failure', label: t('history.failure') },
        ])}
        {select('failure_category', t('history.category'), CATEGORIES.map((category) => ({ value: category, label: categoryLabel(t, category) })))}
        <TextInput type="date" label={t('history.since')} value={params.get('since') ?? ''} onChange={(event) => update({ since: event.currentTarget.value || undefined })} />
        <TextInput type="date" label={t('history.until')} value={params.get('until') ?? ''} onChange={(event) => update({ until: event.currentTarget.value || undefined })} />
      </SimpleGrid>
      {filtered ? (
        <Group>
          <Button variant="subtle" size="xs" onClick={() => setParams(new URLSearchParams())}>
            {t('history.clear')}
          </Button>
        </Group>
      ) : null}
      <DataTable<Schemas['RunListItemDto']>
        caption={t('history.title')}
        rows={runs.data?.items}
        rowKey={(row) => row.run_id}
        loading={runs.isPending}
        error={runs.error}
        onRetry={() => void runs.refetch()}
        titleColumn="task"
        empty={<EmptyState title={filtered ? t('history.noMatch') : t('history.empty')} description={t('history.emptyHint')} />}
        paging={{ kind: 'pages', page, pageSize: PAGE_SIZE, total: runs.data?.total ?? 0, onPage: (next) => update({ page: String(next) }) }}
        columns={[
          { key: 'task', header: t('history.task'), render: (row) => row.task_name },
          { key: 'account', header: t('history.account'), render: (row) => row.account_name },
          {
            key: 'status',
            header: t('history.status'),
            render: (row) => (
              <Badge color={row.success ? 'teal' : 'red'} variant="light">
                {row.success ? t('history.success') : `${t('history.failure')} · ${categoryLabel(t, row.failure_category)}`}
              </Badge>
            ),
          },
          { key: 'time', header: t('history.time'), render: (row) => formatDateTime(row.created_at, timeZone) },
          { key: 'message', header: t('history.message'), render: (row) => <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>{runText.message(row)}</Text> },
          {
            key: 'open',
            header: t('common.actions'),
            render: (row) => (
              <Button size="xs" variant="light" onClick={() => update({ run: row.run_id })} aria-label={t('history.openLog', { task: row.task_name })}>
                {t('history.log')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer opened={!!openRun} onClose={() => update({ run: undefined })} position="right" size="lg" title={t('history.logTitle')}>
        {openRun ? (
          <QueryState query={detail}>
            {(run) => (
              <Stack gap="xs">
                <Text size="sm" fw={600}>
                  {run.task_name} · {run.account_name} · {triggerLabel(t, run.trigger)} · {runStateLabel(t, run.state)}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(run.started_at, timeZone)} → {formatDateTime(run.finished_at, timeZone)} · {t('history.attempts', { count: run.attempts })}
                </Text>
                <pre className="plain-text">{runText.message(run)}</pre>
                <OriginalText text={run.message} shown={runText.message(run)} />
                {run.flow_log.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('history.noSteps')}
                  </Text>
                ) : (
                  <Stack gap={4} component="ol" style={{ paddingLeft: 16, margin: 0 }}>
                    {run.flow_log.map((entry, index) => (
                      <li key={index}>
                        <Text size="xs" c="dimmed">
                          {formatDateTime(entry.at, timeZone)} · {t(`runLog.levels.${entry.level}`, { defaultValue: entry.level })}
                          {entry.step ? ` · ${runText.step(entry.step)}` : ''}
                        </Text>
                        <pre className="plain-text">{runText.line(entry)}</pre>
                      </li>
                    ))}
                  </Stack>
                )}
              </Stack>
            )}
          </QueryState>
        ) : null}
      </Drawer>
    </Page>
  );
}
