import { ActionIcon, Badge, Button, Checkbox, Group, Menu, Modal, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconDots, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { confirmAction, DataTable, EmptyState, formatDateTime, toast, useErrorMessage, useUrlParams } from '@shared/web-ui';
import { FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { categoryLabel } from '../../components/codes';
import { useTimeZone } from '../../components/hooks';
import { Page } from '../../components/page';
import { useReplicaFailureToasts } from '../../components/replica-failures';
import { RunDrawer } from './run-drawer';
import { BatchAction, Task, TaskFilter, useActiveRunsQuery, useAccountNamesQuery, useBatch, useCancelRun, useCloneTask, useDeleteTask, useRunTask, useRuntimeStatusQuery, useScheduledJobsQuery, useSetEnabled, useTasksQuery, listenerHealthOf, nextRunOf } from './tasks-api';
import { describeSchedule } from './schedule-text';

/** The filter as kept in the URL (so a reload or a shared link shows the same list). */
export function taskFilter(params: URLSearchParams): { filter: TaskFilter; search: string } {
  const enabled = params.get('enabled');
  const type = params.get('type');
  return {
    filter: {
      account: params.get('account') || undefined,
      enabled: enabled === 'true' || enabled === 'false' ? enabled : undefined,
      execution_mode: type === 'fixed' || type === 'range' || type === 'listen' ? type : undefined,
    },
    search: params.get('q') ?? '',
  };
}

/** Whether a task matches the search box: its name, accounts or chats contain the text (any case). */
export function matchesSearch(task: Task, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [task.name, task.account_name ?? '', ...(task.account_names ?? []), ...task.chats.flatMap((chat) => [String(chat.chat_id), chat.name ?? ''])];
  return haystack.some((value) => value.toLowerCase().includes(needle));
}

/**
 * Why a task cannot be started by hand, or undefined when it can: a listen task runs through its
 * listener while enabled, and a task needs an account (every account, `*`, needs at least one to exist).
 */
export function notRunnableReason(task: Task, accountCount: number | undefined): 'listen' | 'noAccount' | undefined {
  if (task.execution_mode === 'listen') return 'listen';
  const names = task.account_names ?? (task.account_name ? [task.account_name] : []);
  if (names.includes('*') ? accountCount === 0 : names.length === 0) return 'noAccount';
  return undefined;
}

/** Sign and listen tasks: search and filters, bulk actions, run with the live log, clone, delete. */
export function TasksPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const navigate = useNavigate();
  const [params, setParams] = useUrlParams();
  const { filter, search } = taskFilter(params);
  const tasks = useTasksQuery(filter);
  const accounts = useAccountNamesQuery();
  const active = useActiveRunsQuery();
  const batch = useBatch();
  const setEnabled = useSetEnabled();
  const remove = useDeleteTask();
  const cancel = useCancelRun();
  const replicaFailures = useReplicaFailureToasts();
  const run = useRunTask();
  const jobs = useScheduledJobsQuery();
  const runtime = useRuntimeStatusQuery();
  /** The task whose run this page just started: its drawer follows the run from the first step. */
  const [started, setStarted] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [cloning, setCloning] = useState<Task | null>(null);
  const logOf = params.get('log');

  const rows = useMemo(() => (tasks.data?.tasks ?? []).filter((task) => matchesSearch(task, search)), [tasks.data, search]);
  const running = useMemo(() => new Map((active.data?.runs ?? []).map((run) => [run.task_name, run])), [active.data]);
  const shownSelected = new Set(rows.map((row) => row.name).filter((name) => selected.has(name)));

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  const filtered = ['account', 'enabled', 'type', 'q'].some((key) => params.get(key));

  const runBatch = async (action: BatchAction) => {
    const names = [...shownSelected];
    if (action === 'delete') {
      const ok = await confirmAction({
        title: t('tasks.deleteTitle', { count: names.length }),
        message: `${names.join(', ')}. ${t('tasks.deleteMessage')}`,
        confirmLabel: t('common.delete'),
        cancelLabel: t('common.cancel'),
      });
      if (!ok) return;
    }
    try {
      const result = await batch.mutateAsync({ action, names });
      const failures = result.results.filter((item) => !item.ok);
      const summary = t('tasks.bulkDone', { action: t(`tasks.bulk.${action}`), succeeded: result.succeeded, failed: result.failed });
      if (failures.length === 0) toast.success(summary);
      else
        toast.error(
          new Error(
            [summary, ...failures.map((item) => t('tasks.bulkFailed', { name: item.name, reason: item.message ?? t(`tasks.bulkResult.${item.result}`, { defaultValue: item.result }) }))].join('\n'),
          ),
        );
      if (action === 'delete') setSelected(new Set());
    } catch (error) {
      toast.error(error);
    }
  };

  const toggleEnabled = async (task: Task) => {
    try {
      await setEnabled.mutateAsync({ name: task.name, enabled: !task.enabled });
      toast.success(t(task.enabled ? 'tasks.disabledToast' : 'tasks.enabledToast', { name: task.name }));
    } catch (error) {
      toast.error(error);
    }
  };

  const deleteOne = async (task: Task) => {
    const ok = await confirmAction({ title: t('tasks.deleteOneTitle', { name: task.name }), message: t('tasks.deleteMessage'), confirmLabel: t('common.delete'), cancelLabel: t('common.cancel') });
    if (!ok) return;
    try {
      await remove.mutateAsync(task.name);
      toast.success(t('tasks.deleted'));
      setSelected((current) => {
        const next = new Set(current);
        next.delete(task.name);
        return next;
      });
    } catch (error) {
      toast.error(error);
    }
  };

  const cancelRun = async (name: string) => {
    const ok = await confirmAction({ title: t('tasks.cancelTitle', { name }), message: t('tasks.cancelMessage'), confirmLabel: t('tasks.cancelRun'), cancelLabel: t('common.back'), danger: false });
    if (!ok) return;
    try {
      const result = await cancel.mutateAsync(name);
      toast.info(t('tasks.cancelled', { count: result.cancelled }));
      replicaFailures.afterCancel(result);
    } catch (error) {
      toast.error(error);
    }
  };

  // One click starts the run (every account of the task) and opens its live log.
  const runNow = async (name: string) => {
    try {
      const result = await run.mutateAsync({ name });
      toast.info(t('tasks.started', { count: result.runs.length }));
      replicaFailures.afterRun(result);
      setStarted(name);
      update({ log: name });
    } catch (error) {
      toast.error(error);
    }
  };


  return (
    <Page
      title={t('tasks.title')}
      actions={
        <Button component={Link} to="/tasks/new" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('tasks.create')}
        </Button>
      }
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
        <TextInput label={t('tasks.search')} placeholder={t('tasks.searchHint')} type="search" value={search} onChange={(event) => update({ q: event.currentTarget.value || undefined })} />
        <NativeSelect
          label={t('tasks.account')}
          value={filter.account ?? ''}
          data={[{ value: '', label: t('common.all') }, ...(accounts.data ?? []).map((name) => ({ value: name, label: name }))]}
          onChange={(event) => update({ account: event.currentTarget.value || undefined })}
        />
        <NativeSelect
          label={t('tasks.enabled')}
          value={filter.enabled ?? ''}
          data={[
            { value: '', label: t('common.all') },
            { value: 'true', label: t('tasks.onlyEnabled') },
            { value: 'false', label: t('tasks.onlyDisabled') },
          ]}
          onChange={(event) => update({ enabled: event.currentTarget.value || undefined })}
        />
        <NativeSelect
          label={t('tasks.type')}
          value={filter.execution_mode ?? ''}
          data={[
            { value: '', label: t('common.all') },
            { value: 'fixed', label: `${t('tasks.typeSign')}: ${t('tasks.mode.fixed')}` },
            { value: 'range', label: `${t('tasks.typeSign')}: ${t('tasks.mode.range')}` },
            { value: 'listen', label: t('tasks.typeListen') },
          ]}
          onChange={(event) => update({ type: event.currentTarget.value || undefined })}
        />
      </SimpleGrid>
      {filtered ? (
        <Group>
          <Button variant="subtle" size="xs" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
            {t('tasks.clearFilters')}
          </Button>
        </Group>
      ) : null}
      {rows.length > 0 ? (
        <Paper withBorder p="xs" role="region" aria-label={t('tasks.selected', { count: shownSelected.size })}>
          <Group gap="xs" justify="space-between">
            <Checkbox
              label={t('tasks.selectAll')}
              checked={shownSelected.size === rows.length}
              indeterminate={shownSelected.size > 0 && shownSelected.size < rows.length}
              onChange={(event) => setSelected(event.currentTarget.checked ? new Set(rows.map((row) => row.name)) : new Set())}
            />
            <Group gap="xs">
              <Text size="sm" c="dimmed" aria-live="polite">
                {t('tasks.selected', { count: shownSelected.size })}
              </Text>
              {(['enable', 'disable', 'run', 'delete'] as const).map((action) => (
                <Button
                  key={action}
                  size="xs"
                  variant={action === 'delete' ? 'light' : 'default'}
                  color={action === 'delete' ? 'red' : undefined}
                  disabled={shownSelected.size === 0 || (action === 'run' && !rows.some((row) => shownSelected.has(row.name) && !notRunnableReason(row, accounts.data?.length)))}
                  loading={batch.isPending && batch.variables?.action === action}
                  onClick={() => void runBatch(action)}
                >
                  {t(`tasks.bulk.${action}`)}
                </Button>
              ))}
            </Group>
          </Group>
        </Paper>
      ) : null}
      <DataTable<Task>
        caption={t('tasks.title')}
        rows={tasks.data ? rows : undefined}
        rowKey={(row) => row.name}
        loading={tasks.isPending}
        error={tasks.error}
        onRetry={() => void tasks.refetch()}
        titleColumn="name"
        selection={{ selected: shownSelected, onChange: setSelected, label: (row) => t('tasks.selectRow', { name: row.name }) }}
        empty={
          filtered ? (
            <EmptyState title={t('tasks.noMatch')} description={t('tasks.noMatchHint')} />
          ) : (
            <EmptyState
              title={t('tasks.empty')}
              description={t('tasks.emptyHint')}
              action={
                <Button component={Link} to="/tasks/new">
                  {t('tasks.create')}
                </Button>
              }
            />
          )
        }
        columns={[
          {
            key: 'name',
            header: t('tasks.columns.name'),
            render: (row) => (
              <Stack gap={2}>
                <Text component={Link} to={`/tasks/${encodeURIComponent(row.name)}`} size="sm" fw={600} c="var(--mantine-primary-color-filled)" style={{ overflowWrap: 'anywhere' }}>
                  {row.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('tasks.chatsCount', { count: row.chats.length })}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'schedule',
            header: t('tasks.columns.schedule'),
            render: (row) => (
              <Stack gap={2}>
                <Badge variant="light" color={row.execution_mode === 'listen' ? 'grape' : 'blue'} style={{ alignSelf: 'flex-start' }}>
                  {t(`tasks.mode.${row.execution_mode}`)}
                </Badge>
                <Text size="sm">{describeSchedule(t, row)}</Text>
                {row.execution_mode === 'fixed' && row.sign_at && describeSchedule(t, row) !== row.sign_at ? (
                  <Text size="xs" c="dimmed" ff="monospace">
                    {row.sign_at}
                  </Text>
                ) : null}
              </Stack>
            ),
          },
          {
            key: 'nextRun',
            header: t('tasks.nextRunColumn'),
            render: (row) => {
              if (row.execution_mode === 'listen') {
                if (!row.enabled || !runtime.data) return <Text size="xs" c="dimmed">—</Text>;
                const { health, accounts: affected } = listenerHealthOf(row.name, runtime.data.components['listeners']?.details);
                const color = health === 'listening' ? 'teal' : health === 'failing' ? 'red' : health === 'starting' ? 'blue' : 'gray';
                return (
                  <Stack gap={2}>
                    <Badge color={color} variant="dot" style={{ alignSelf: 'flex-start' }}>
                      {t(`tasks.listener.${health}`)}
                    </Badge>
                    {health === 'failing' ? (
                      <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
                        {t('tasks.listener.failingHint', { accounts: affected.join(', ') })}
                      </Text>
                    ) : null}
                  </Stack>
                );
              }
              const next = row.enabled && jobs.data ? nextRunOf(row, jobs.data.jobs, accounts.data ?? []) : null;
              return (
                <Text size="xs" c={next ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  {next ? formatDateTime(next, timeZone, false) : t('tasks.noNextRun')}
                </Text>
              );
            },
          },
          {
            key: 'accounts',
            header: t('tasks.columns.accounts'),
            render: (row) => (row.account_names?.includes('*') ? t('tasks.allAccounts') : (row.account_names ?? [row.account_name ?? '']).join(', ')),
          },
          {
            key: 'lastRun',
            header: t('tasks.columns.lastRun'),
            render: (row) => {
              const run = running.get(row.name);
              if (run)
                return (
                  <Badge color="blue" variant="dot">
                    {t('tasks.running')} · {t(`panel.phase.${run.phase}`, { defaultValue: run.phase })}
                  </Badge>
                );
              if (!row.last_run) return <Text size="xs" c="dimmed">{t('tasks.never')}</Text>;
              return (
                <Stack gap={2}>
                  <Badge color={row.last_run.success ? 'teal' : 'red'} variant="light" style={{ alignSelf: 'flex-start' }}>
                    {row.last_run.success ? t('tasks.result.success') : `${t('tasks.result.failure')} · ${categoryLabel(t, row.last_run.failure_category)}`}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(row.last_run.at, timeZone, false)} · {row.last_run.account_name}
                  </Text>
                </Stack>
              );
            },
          },
          {
            key: 'state',
            header: t('tasks.columns.state'),
            render: (row) => (
              <Badge color={row.enabled ? 'teal' : 'gray'} variant="dot">
                {row.enabled ? t('tasks.on') : t('tasks.off')}
              </Badge>
            ),
          },
          {
            key: 'actions',
            header: t('common.actions'),
            render: (row) => (
              <Group gap={4} wrap="nowrap">
                {running.has(row.name) ? (
                  <Button size="xs" color="orange" variant="light" onClick={() => void cancelRun(row.name)}>
                    {t('tasks.cancelRun')}
                  </Button>
                ) : notRunnableReason(row, accounts.data?.length) ? (
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t(`tasks.notRunnable.${notRunnableReason(row, accounts.data?.length)}`)}
                  </Text>
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconPlayerPlay size={14} aria-hidden />}
                    aria-label={t('tasks.runTask', { name: row.name })}
                    loading={run.isPending && run.variables?.name === row.name}
                    onClick={() => void runNow(row.name)}
                  >
                    {t('tasks.runNow')}
                  </Button>
                )}
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="default" size="lg" aria-label={t('tasks.more', { name: row.name })}>
                      <IconDots size={16} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => update({ log: row.name })}>{t('tasks.log')}</Menu.Item>
                    <Menu.Item onClick={() => void navigate(`/tasks/${encodeURIComponent(row.name)}`)}>{t('tasks.edit')}</Menu.Item>
                    <Menu.Item onClick={() => setCloning(row)}>{t('tasks.clone')}</Menu.Item>
                    <Menu.Item onClick={() => void toggleEnabled(row)}>{row.enabled ? t('tasks.disable') : t('tasks.enable')}</Menu.Item>
                    <Menu.Divider />
                    <Menu.Item color="red" onClick={() => void deleteOne(row)}>
                      {t('common.delete')}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
            ),
          },
        ]}
      />
      {logOf ? (
        <RunDrawer
          key={logOf}
          name={logOf}
          justStarted={started === logOf}
          onClose={() => {
            setStarted(null);
            update({ log: undefined });
          }}
        />
      ) : null}
      {cloning ? <CloneDialog key={cloning.name} task={cloning} onClose={() => setCloning(null)} /> : null}
    </Page>
  );
}

function CloneDialog({ task, onClose }: { task: Task; onClose: () => void }) {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  const clone = useCloneTask();
  const [name, setName] = useState(() => t('tasks.copySuffix', { name: task.name }));
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const newName = name.trim();
    if (!newName) {
      setError(t('tasks.errors.required'));
      return;
    }
    try {
      await clone.mutateAsync({ name: task.name, newName });
      toast.success(t('tasks.cloned', { name: newName }));
      onClose();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('tasks.cloneTitle', { name: task.name })} centered>
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <TextInput label={t('tasks.cloneName')} value={name} onChange={(event) => setName(event.currentTarget.value)} error={error} data-autofocus maxLength={64} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={clone.isPending}>
              {t('tasks.cloneSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
