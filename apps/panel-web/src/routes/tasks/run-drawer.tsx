import { Anchor, Badge, Button, Drawer, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { confirmAction, ErrorState, formatDateTime, LoadingState, QueryState, toast } from '@shared/web-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Schemas } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { useReplicaFailureToasts } from '../../components/replica-failures';
import { categoryLabel } from '../../components/codes';
import { OriginalText } from '../../components/original-text';
import { useRunText } from '../../components/run-text';
import { RunStatus, useAccountNamesQuery, useCancelRun, useRunStatusQuery, useRunTask, useTaskHistoryQuery, useTaskQuery } from './tasks-api';

type RunView = Schemas['RunStatusDto'];

/** Whether the run status shows any run still going. */
export function isRunning(status: RunStatus | undefined): boolean {
  return !!status && (status.state === 'running' || status.runs.some((run) => run.state === 'running'));
}

/**
 * Run a task now and watch it: the in-memory run status is read every second while a run goes, so
 * each step of the flow log appears as it happens; cancel; the task's recent finished runs.
 */
export function RunDrawer({ name, justStarted = false, onClose }: { name: string; /** The page has just started a run: follow it from its first step. */ justStarted?: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const task = useTaskQuery(name);
  const allAccounts = useAccountNamesQuery();
  const [watching, setWatching] = useState(justStarted);
  const status = useRunStatusQuery(name, watching);
  const history = useTaskHistoryQuery(name);
  const run = useRunTask();
  const cancel = useCancelRun();
  const runText = useRunText();
  const replicaFailures = useReplicaFailureToasts();
  const [account, setAccount] = useState('');
  const running = isRunning(status.data);
  const wasRunning = useRef(justStarted);

  useEffect(() => {
    if (running) wasRunning.current = true;
    else if (wasRunning.current && status.data) {
      // The run ended: its entry is now in the history, and the task's last run changed.
      wasRunning.current = false;
      setWatching(false);
      void queryClient.invalidateQueries({ queryKey: ['runs', 'history', name] });
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
    }
  }, [running, status.data, name, queryClient]);

  const listens = task.data?.execution_mode === 'listen';
  const taskAccounts = task.data ? (task.data.account_names?.includes('*') ? (allAccounts.data ?? []) : (task.data.account_names ?? [task.data.account_name ?? ''])) : [];

  const start = async () => {
    try {
      const result = await run.mutateAsync({ name, account: account || undefined });
      setWatching(true);
      wasRunning.current = true;
      toast.info(t('tasks.started', { count: result.runs.length }));
      replicaFailures.afterRun(result);
      await status.refetch();
    } catch {
      // Shown in the drawer (run.error) until the next try: a toast would vanish and cover the title.
    }
  };

  const stop = async () => {
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

  const runs: RunView[] = status.data ? (status.data.runs.length > 0 ? status.data.runs : []) : [];

  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('tasks.run.title', { name })}>
      <Stack gap="md">
        <Group align="flex-end" gap="xs">
          {taskAccounts.length > 1 && !listens ? (
            <NativeSelect
              label={t('tasks.run.account')}
              value={account}
              onChange={(event) => setAccount(event.currentTarget.value)}
              data={[{ value: '', label: t('tasks.run.allAccounts') }, ...taskAccounts.map((value) => ({ value, label: value }))]}
              style={{ flex: 1, minWidth: 0 }}
            />
          ) : null}
          {listens ? (
            <Text size="sm" c="dimmed">
              {t('tasks.run.listenExplained')}
            </Text>
          ) : running ? (
            <Button color="orange" variant="light" onClick={() => void stop()} loading={cancel.isPending}>
              {t('tasks.cancelRun')}
            </Button>
          ) : (
            <Button onClick={() => void start()} loading={run.isPending} disabled={task.isError}>
              {t('tasks.run.start')}
            </Button>
          )}
        </Group>
        {task.isError ? <ErrorState error={task.error} onRetry={() => void task.refetch()} /> : null}
        {run.isError ? <ErrorState error={run.error} title={t('tasks.run.startFailed')} /> : null}

        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('tasks.run.live')}
          </Title>
          {status.isPending ? (
            <LoadingState rows={2} />
          ) : status.isError ? (
            <ErrorState error={status.error} onRetry={() => void status.refetch()} />
          ) : runs.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('tasks.run.noRun')}
            </Text>
          ) : (
            runs.map((item) => <RunLog key={item.run_id ?? 'idle'} run={item} timeZone={timeZone} />)
          )}
        </Stack>

        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={3} size="h5">
              {t('tasks.run.recent')}
            </Title>
            <Anchor component={Link} to={`/history?task=${encodeURIComponent(name)}`} size="sm">
              {t('tasks.run.allHistory')}
            </Anchor>
          </Group>
          <QueryState query={history} isEmpty={(data) => data.history.length === 0} empty={<Text size="sm" c="dimmed">{t('tasks.run.noRecent')}</Text>} loadingRows={2}>
            {(data) => (
              <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.history.map((entry) => (
                  <Paper key={entry.run_id} component="li" withBorder p="xs">
                    <Group gap="xs" justify="space-between">
                      <Badge color={entry.success ? 'teal' : 'red'} variant="light">
                        {entry.success ? t('tasks.result.success') : `${t('tasks.result.failure')} · ${categoryLabel(t, entry.failure_category)}`}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(entry.finished_at, timeZone)} · {entry.account_name} · {t(`tasks.trigger.${entry.trigger}`, { defaultValue: entry.trigger })}
                      </Text>
                    </Group>
                    <pre className="plain-text">{runText.message(entry)}</pre>
                    <OriginalText text={entry.message} shown={runText.message(entry)} />
                    {entry.flow_log.length > 0 ? (
                      <details>
                        <summary>
                          <Text span size="xs">
                            {t('tasks.run.showSteps')} ({entry.flow_log.length})
                          </Text>
                        </summary>
                        <Stack gap={2} component="ol" style={{ paddingLeft: 16, margin: 0 }}>
                          {entry.flow_log.map((line, index) => (
                            <li key={index}>
                              <pre className="plain-text">
                                {formatDateTime(line.at, timeZone)} {runText.line(line)}
                              </pre>
                            </li>
                          ))}
                        </Stack>
                      </details>
                    ) : null}
                  </Paper>
                ))}
              </Stack>
            )}
          </QueryState>
        </Stack>
      </Stack>
    </Drawer>
  );
}

function RunLog({ run, timeZone }: { run: RunView; timeZone: string }) {
  const { t } = useTranslation();
  const runText = useRunText();
  const color = run.state === 'running' ? 'blue' : run.success ? 'teal' : run.state === 'idle' ? 'gray' : 'red';
  return (
    <Paper withBorder p="xs">
      <Stack gap={6}>
        <Group gap="xs">
          <Badge color={color} variant="light">
            {t(`tasks.state.${run.state}`, { defaultValue: run.state })}
          </Badge>
          {run.phase ? (
            <Text size="xs">
              {t('tasks.run.phase')}: {t(`panel.phase.${run.phase}`, { defaultValue: run.phase })}
              {run.phase_detail ? ` · ${runText.phaseDetail(run)}` : ''}
            </Text>
          ) : null}
          {run.account_name ? (
            <Text size="xs" c="dimmed">
              {run.account_name} · {t('tasks.run.attempts', { count: run.attempts })}
            </Text>
          ) : null}
        </Group>
        {run.state !== 'running' && run.success === false && run.failure_category !== 'none' ? (
          <Text size="xs" c="red">
            {run.error ? t('tasks.run.failedWith', { category: categoryLabel(t, run.failure_category), error: runText.error(run) }) : categoryLabel(t, run.failure_category)}
          </Text>
        ) : null}
        {run.state !== 'running' && run.success === false && run.failure_category !== 'none' ? (
          <OriginalText text={run.error} shown={runText.error(run)} />
        ) : null}
        {run.logs.length === 0 ? (
          <Text size="xs" c="dimmed">
            {run.state === 'running' ? t('tasks.run.waiting') : t('tasks.run.logGone')}
          </Text>
        ) : (
          <Stack gap={2} component="ol" aria-live="polite" aria-label={t('tasks.run.live')} style={{ paddingLeft: 16, margin: 0 }}>
            {run.logs.map((line, index) => (
              <li key={index}>
                <Text size="xs" c={line.level === 'error' ? 'red' : line.level === 'warn' ? 'orange' : 'dimmed'}>
                  {formatDateTime(line.at, timeZone)} · {t(`tasks.level.${line.level}`, { defaultValue: line.level })}
                  {line.step ? ` · ${runText.step(line.step)}` : ''}
                </Text>
                <pre className="plain-text">{runText.line(line)}</pre>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
