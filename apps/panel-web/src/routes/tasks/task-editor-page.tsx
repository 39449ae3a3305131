import { Alert, Anchor, Button, Checkbox, Group, List, MultiSelect, NumberInput, Paper, Radio, SimpleGrid, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { useForm, UseFormReturnType } from '@mantine/form';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ApiError, EmptyState, ErrorState, formatDateTime, LoadingState, toast, useErrorMessage, useFieldErrors, useFieldProblemText, useUnsavedChangesGuard } from '@shared/web-ui';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useAccountListQuery, useSettingsQuery } from '../../components/hooks';
import { Page } from '../../components/page';
import { describeSchedule } from './schedule-text';
import { ActionList } from './action-fields';
import { ChatPicker, pickerAccount } from './chat-picker';
import { RecipeBar } from './recipe-bar';
import { VerdictFields } from './verdict-fields';
import {
  ActionForm,
  apiFieldErrors,
  emptyChat,
  emptyTask,
  ExecutionMode,
  FOLLOW_UP_ACTIONS,
  FormIssues,
  formFromTask,
  LISTEN_ACTION,
  scheduleIssues,
  SIGN_ACTIONS,
  Step,
  STEPS,
  stepOfField,
  TaskForm,
  taskFormField,
  taskFromForm,
  validateTask,
} from './task-form';
import { PreviewInput, useAccountNamesQuery, useSaveTask, useSchedulePreviewQuery, useTaskQuery } from './tasks-api';

export type TaskFormApi = UseFormReturnType<TaskForm>;

/** /tasks/new and /tasks/:name: the editor, with the stored task loaded first when editing. */
export function TaskEditorPage() {
  const { t } = useTranslation();
  const { name } = useParams();
  const task = useTaskQuery(name);
  if (name === undefined) return <TaskEditor initial={emptyTask()} />;
  if (task.isPending) return <LoadingState rows={6} />;
  if (task.error instanceof ApiError && task.error.status === 404)
    return (
      <EmptyState
        title={t('tasks.editor.notFound')}
        action={
          <Button component={Link} to="/tasks">
            {t('tasks.editor.backToList')}
          </Button>
        }
      />
    );
  if (task.isError || !task.data) return <ErrorState error={task.error} onRetry={() => void task.refetch()} />;
  return <TaskEditor key={task.data.updated_at} initial={formFromTask(task.data)} original={task.data.name} />;
}

function translateIssues(issues: FormIssues, t: (key: string, values?: Record<string, string | number>) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(issues).map(([path, issue]) => [path, t(`tasks.errors.${issue.key}`, issue.values)]));
}

export function TaskEditor({ initial, original }: { initial: TaskForm; original?: string }) {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  const fieldErrors = useFieldErrors();
  const problemText = useFieldProblemText();
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const form = useForm<TaskForm>({ mode: 'controlled', initialValues: initial });
  const save = useSaveTask();
  const [step, setStep] = useState(0);
  const [serverProblems, setServerProblems] = useState<string[]>([]);
  const [savedAs, setSavedAs] = useState<string | null>(null);
  const listen = form.values.execution_mode === 'listen';
  useUnsavedChangesGuard(form.isDirty() && savedAs === null);

  useEffect(() => {
    if (savedAs !== null) void navigate('/tasks');
  }, [savedAs, navigate]);

  const issues = () => translateIssues(validateTask(form.getValues()), t);

  // A listen task has no schedule: its steps skip that one.
  const steps: readonly Step[] = listen ? STEPS.filter((id) => id !== 'schedule') : STEPS;
  const stepIndex = (path: string) => steps.indexOf(stepOfField(path));

  /** Shows the problems of the steps up to `upTo`; true when there are none. */
  const checkSteps = (upTo: number): boolean => {
    const found = Object.fromEntries(Object.entries(issues()).filter(([path]) => stepIndex(path) <= upTo));
    form.setErrors(found);
    const first = Object.keys(found).map(stepIndex);
    if (first.length) {
      setStep(Math.min(...first));
      return false;
    }
    return true;
  };

  const submit = async () => {
    setServerProblems([]);
    if (!checkSteps(steps.length - 1)) {
      toast.error(new Error(t('tasks.editor.fixErrors')));
      return;
    }
    const body = taskFromForm(form.getValues());
    try {
      await save.mutateAsync({ original, body });
      toast.success(t(original ? 'tasks.editor.saved' : 'tasks.editor.created', { name: body.name }));
      form.resetDirty();
      setSavedAs(body.name);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'task_exists') {
        form.setErrors({ name: describeError(error) });
        setStep(0);
      } else if (error instanceof ApiError && error.status === 400 && error.fields.length) {
        // Each refused field in the page's words, on the field; what the form does not show goes in the summary.
        const fields = fieldErrors(error, taskFormField);
        const other = [...new Set(error.fields.filter((problem) => taskFormField(problem.field) === undefined).map(problemText))];
        form.setErrors(fields);
        setServerProblems(other);
        const refused = Object.keys(fields).map(stepIndex).filter((index) => index >= 0);
        if (refused.length) setStep(Math.min(...refused));
        toast.error(new Error(t('tasks.editor.fixErrors')), t('tasks.editor.serverRefused'));
      } else if (error instanceof ApiError && error.status === 400) {
        const { fields, other } = apiFieldErrors(error.message);
        form.setErrors(fields);
        setServerProblems(other);
        const refused = Object.keys(fields).map(stepIndex).filter((index) => index >= 0);
        if (refused.length) setStep(Math.min(...refused));
        toast.error(new Error(t('tasks.editor.fixErrors')), t('tasks.editor.serverRefused'));
      } else {
        toast.error(error);
      }
    }
  };

  const changeMode = (mode: ExecutionMode) => {
    const wasListen = form.getValues().execution_mode === 'listen';
    form.setFieldValue('execution_mode', mode);
    if (wasListen !== (mode === 'listen')) {
      // Keep the actions that fit the new kind of task; a chat left with none gets the usual first one.
      const allowed = mode === 'listen' ? [LISTEN_ACTION] : SIGN_ACTIONS;
      form.setFieldValue(
        'chats',
        form.getValues().chats.map((chat) => {
          const kept = chat.actions.filter((action) => allowed.includes(action.action));
          return { ...chat, actions: kept.length ? kept : emptyChat(mode).actions };
        }),
      );
    }
  };

  const current = steps[Math.min(step, steps.length - 1)];
  const stepLabels = steps.map((id) => (id === 'chats' && listen ? t('tasks.editor.steps.chatsListen') : t(`tasks.editor.steps.${id}`)));
  const title = original ? t('tasks.editor.editTitle', { name: original }) : t('tasks.editor.createTitle');

  return (
    <Page title={title}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (step < steps.length - 1) {
            if (checkSteps(step)) setStep(step + 1);
          } else void submit();
        }}
      >
        <Stack gap="md">
          <RecipeBar form={form} original={original} />
          <Stepper active={step} onStepClick={setStep} size="sm" iconSize={phone ? 28 : 34} allowNextStepsSelect>
            {steps.map((id, index) => (
              <Stepper.Step key={id} label={phone ? <span className="visually-hidden">{stepLabels[index]}</span> : stepLabels[index]} />
            ))}
          </Stepper>
          <Title order={3} size="h4">
            {phone ? `${t('tasks.editor.stepOf', { step: step + 1, count: steps.length })}: ` : ''}
            {stepLabels[step]}
          </Title>
          {current === 'basics' ? <BasicsStep form={form} onMode={changeMode} editing={original !== undefined} /> : null}
          {current === 'schedule' ? <ScheduleStep form={form} /> : null}
          {current === 'chats' ? <ChatsStep form={form} /> : null}
          {current === 'review' ? <ReviewStep form={form} /> : null}
          {serverProblems.length ? (
            <Alert color="red" title={t('tasks.editor.serverRefused')} role="alert">
              <List size="sm">
                {serverProblems.map((problem) => (
                  <List.Item key={problem}>{problem}</List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
          <Group justify="space-between">
            <Group gap="xs">
              <Button variant="default" component={Link} to="/tasks">
                {t('common.cancel')}
              </Button>
              {step > 0 ? (
                <Button variant="default" onClick={() => setStep(step - 1)}>
                  {t('tasks.editor.back')}
                </Button>
              ) : null}
            </Group>
            <Group gap="xs">
              {step < steps.length - 1 ? <Button type="submit">{t('tasks.editor.next')}</Button> : null}
              {step === steps.length - 1 || original ? (
                <Button type={step === steps.length - 1 ? 'submit' : 'button'} onClick={step === steps.length - 1 ? undefined : () => void submit()} loading={save.isPending}>
                  {t('tasks.editor.save')}
                </Button>
              ) : null}
            </Group>
          </Group>
        </Stack>
      </form>
    </Page>
  );
}

function BasicsStep({ form, onMode, editing }: { form: TaskFormApi; onMode: (mode: ExecutionMode) => void; editing: boolean }) {
  const { t } = useTranslation();
  const accounts = useAccountNamesQuery();
  const values = form.values;
  const options = useMemo(() => [...new Set([...(accounts.data ?? []), ...values.accounts])], [accounts.data, values.accounts]);
  return (
    <Stack gap="sm">
      <TextInput label={t('tasks.editor.name')} description={editing ? t('tasks.editor.nameFixed') : t('tasks.editor.nameHint')} required maxLength={64} readOnly={editing} {...form.getInputProps('name')} />
      <Stack gap={6}>
        <MultiSelect
          label={t('tasks.editor.accounts')}
          description={t('tasks.editor.accountsHint')}
          data={options}
          searchable
          disabled={values.all_accounts}
          nothingFoundMessage={t('tasks.editor.noAccounts')}
          {...form.getInputProps('accounts')}
        />
        <Checkbox label={t('tasks.editor.allAccounts')} {...form.getInputProps('all_accounts', { type: 'checkbox' })} />
        {accounts.data && accounts.data.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('tasks.editor.noAccounts')}
          </Text>
        ) : null}
      </Stack>
      <Radio.Group label={t('tasks.editor.mode')} value={values.execution_mode} onChange={(value) => onMode(value as ExecutionMode)}>
        <Stack gap={6} mt={6}>
          <Radio value="fixed" label={t('tasks.editor.modeFixed')} />
          <Radio value="range" label={t('tasks.editor.modeRange')} />
          <Radio value="listen" label={t('tasks.editor.modeListen')} />
        </Stack>
      </Radio.Group>
    </Stack>
  );
}

function ScheduleStep({ form }: { form: TaskFormApi }) {
  const { t } = useTranslation();
  const values = form.values;
  if (values.execution_mode === 'listen') return <Text size="sm">{t('tasks.editor.listenNoSchedule')}</Text>;
  return (
    <Stack gap="sm">
      {values.execution_mode === 'fixed' ? (
        <TextInput label={t('tasks.editor.signAt')} description={t('tasks.editor.signAtHint')} required ff="monospace" {...form.getInputProps('sign_at')} />
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs">
          <TextInput label={t('tasks.editor.rangeStart')} required placeholder="08:00" {...form.getInputProps('range_start')} />
          <TextInput label={t('tasks.editor.rangeEnd')} required placeholder="09:30" {...form.getInputProps('range_end')} />
        </SimpleGrid>
      )}
      {values.execution_mode === 'range' ? (
        <Text size="xs" c="dimmed">
          {t('tasks.editor.rangeHint')}
        </Text>
      ) : (
        <NumberInput label={t('tasks.editor.randomSeconds')} description={t('tasks.editor.randomHint')} min={0} max={86_400} allowDecimal={false} allowNegative={false} {...form.getInputProps('random_seconds')} />
      )}
      <SchedulePreview form={form} />
    </Stack>
  );
}

/** The next five runs as the service's scheduler computes them, in the configured time zone. */
function SchedulePreview({ form }: { form: TaskFormApi }) {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  const values = form.values;
  const input: PreviewInput | undefined = useMemo(() => {
    if (values.execution_mode === 'listen' || Object.keys(scheduleIssues(values)).length > 0) return undefined;
    return values.execution_mode === 'fixed'
      ? { execution_mode: 'fixed', sign_at: values.sign_at.trim(), random_seconds: values.random_seconds === '' ? 0 : values.random_seconds }
      : { execution_mode: 'range', range_start: values.range_start.trim(), range_end: values.range_end.trim() };
  }, [values]);
  const [debounced] = useDebouncedValue(input, 400);
  const preview = useSchedulePreviewQuery(debounced);
  let body;
  if (!input) body = <Text size="sm" c="dimmed">{t('tasks.editor.previewInvalid')}</Text>;
  else if (preview.isError) body = <Text size="sm" c="red" role="alert">{describeError(preview.error)}</Text>;
  else if (!preview.data || preview.isFetching) body = <Text size="sm" c="dimmed">{t('tasks.editor.previewLoading')}</Text>;
  else {
    const zone = preview.data.time_zone;
    body = (
      <Stack gap={2} component="ol" style={{ paddingLeft: 20, margin: 0 }}>
        {preview.data.runs.map((run) => (
          <li key={run.fires_at}>
            <Text size="sm" ff="monospace" span>
              {run.latest_start === run.fires_at
                ? formatDateTime(run.fires_at, zone)
                : `${formatDateTime(run.fires_at, zone)} · ${t('tasks.editor.previewWindow', { start: formatDateTime(run.fires_at, zone, false), end: formatDateTime(run.latest_start, zone) })}`}
            </Text>
          </li>
        ))}
      </Stack>
    );
  }
  return (
    <Paper withBorder p="sm" aria-live="polite">
      <Text size="sm" fw={600} mb={4}>
        {t('tasks.editor.preview', { zone: preview.data?.time_zone ?? '…' })}
      </Text>
      {body}
    </Paper>
  );
}

function ChatsStep({ form }: { form: TaskFormApi }) {
  const { t } = useTranslation();
  const values = form.values;
  const listen = values.execution_mode === 'listen';
  const chatsError = form.errors['chats'];
  const accounts = useAccountListQuery();
  const picker = accounts.data ? pickerAccount(accounts.data.accounts, values.accounts, values.all_accounts) : {};
  return (
    <Stack gap="md">
      {picker.reason ? (
        <Text size="sm" c="dimmed">
          {t(picker.reason === 'offline' ? 'tasks.editor.pickChatOffline' : 'tasks.editor.pickChatNoAccount')}
        </Text>
      ) : null}
      {values.chats.map((chat, index) => (
        <Paper key={index} withBorder p="sm" component="fieldset" style={{ minWidth: 0 }}>
          <Stack gap="sm">
            <Group justify="space-between" gap="xs">
              <Text component="legend" fw={600} size="sm" p={0}>
                {t('tasks.editor.chat', { index: index + 1 })}
              </Text>
              {values.chats.length > 1 ? (
                <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => form.removeListItem('chats', index)}>
                  {t('tasks.editor.removeChat', { index: index + 1 })}
                </Button>
              ) : null}
            </Group>
            {picker.name ? <ChatPicker form={form} index={index} account={picker.name} /> : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
              <TextInput label={t('tasks.editor.chatId')} description={t('tasks.editor.chatIdHint')} required {...form.getInputProps(`chats.${index}.chat_id`)} />
              <TextInput label={t('tasks.editor.chatName')} {...form.getInputProps(`chats.${index}.name`)} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" verticalSpacing="xs">
              <NumberInput label={t('tasks.editor.threadId')} min={1} allowDecimal={false} allowNegative={false} {...form.getInputProps(`chats.${index}.message_thread_id`)} />
              {!listen ? (
                <>
                  <NumberInput label={t('tasks.editor.actionInterval')} min={0} max={3600} allowDecimal={false} allowNegative={false} {...form.getInputProps(`chats.${index}.action_interval`)} />
                  <NumberInput label={t('tasks.editor.deleteAfter')} min={1} max={604_800} allowDecimal={false} allowNegative={false} {...form.getInputProps(`chats.${index}.delete_after`)} />
                </>
              ) : null}
            </SimpleGrid>
            <ActionList form={form} path={`chats.${index}.actions`} context={listen ? 'listen' : 'sign'} kinds={listen ? [LISTEN_ACTION] : SIGN_ACTIONS} followUpKinds={FOLLOW_UP_ACTIONS} />
            {!listen ? <VerdictFields form={form} index={index} /> : null}
          </Stack>
        </Paper>
      ))}
      {chatsError ? (
        <Text size="sm" c="red" role="alert">
          {chatsError}
        </Text>
      ) : null}
      <Group>
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => form.insertListItem('chats', emptyChat(values.execution_mode))} disabled={values.chats.length >= 50}>
          {t('tasks.editor.addChat')}
        </Button>
      </Group>
    </Stack>
  );
}

function ReviewStep({ form }: { form: TaskFormApi }) {
  const { t } = useTranslation();
  const values = form.values;
  const accounts = values.all_accounts ? t('tasks.allAccounts') : values.accounts.join(', ') || '—';
  const schedule = describeSchedule(t, values);
  const settings = useSettingsQuery();
  const usesAi = values.chats.some((chat) => chat.actions.some(function ai(action: ActionForm): boolean {
    return (action.action >= 4 && action.action <= 7) || (action.action === 1 && action.ai_reply) || action.continue_actions.some(ai);
  }));
  const aiMissing = usesAi && settings.data !== undefined && (!settings.data.ai_model || !settings.data.ai_api_key_set);
  return (
    <Stack gap="sm">
      {aiMissing ? (
        <Alert color="yellow" role="alert">
          <Text size="sm">{t('tasks.editor.aiWithoutModel')}</Text>
          <Anchor component={Link} to="/settings?tab=ai" size="sm">
            {t('tasks.editor.aiSettings')}
          </Anchor>
        </Alert>
      ) : null}
      <Paper withBorder p="sm">
        <Text size="sm" fw={600} mb={4}>
          {t('tasks.editor.reviewChats')}
        </Text>
        <Stack gap={4} component="ul" style={{ paddingLeft: 20, margin: 0 }}>
          {values.chats.map((chat, index) => (
            <li key={index}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Text span fw={600}>
                  {chat.name ? `${chat.name} (${chat.chat_id || '—'})` : chat.chat_id || '—'}
                </Text>
                {': '}
                {chat.actions.map((action) => t(`tasks.editor.actionTypes.${action.action}`)).join(' → ')}
              </Text>
            </li>
          ))}
        </Stack>
      </Paper>
      {values.execution_mode !== 'listen' ? <SchedulePreview form={form} /> : null}
      {values.execution_mode !== 'listen' ? (
        // Retries, the pause between accounts and run notices belong to runs; a listener has none (keyword hits notify by their rule).
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
            <NumberInput label={t('tasks.editor.retryCount')} min={0} max={99} allowDecimal={false} allowNegative={false} {...form.getInputProps('retry_count')} />
            <NumberInput label={t('tasks.editor.signInterval')} min={0} max={3600} allowDecimal={false} allowNegative={false} {...form.getInputProps('sign_interval')} />
          </SimpleGrid>
          <Checkbox label={t('tasks.editor.enabled')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Checkbox label={t('tasks.editor.notifyFailure')} {...form.getInputProps('notify_on_failure', { type: 'checkbox' })} />
          <Checkbox label={t('tasks.editor.notifySuccess')} {...form.getInputProps('notify_on_success', { type: 'checkbox' })} />
        </>
      ) : (
        <Checkbox label={t('tasks.editor.enabled')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
      )}
      <Paper withBorder p="sm">
        <Text size="sm" fw={600}>
          {t('tasks.editor.summary')}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {values.name || '—'} · {t(`tasks.mode.${values.execution_mode}`)} · {schedule}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {accounts} · {t('tasks.chatsCount', { count: values.chats.length })}
        </Text>
      </Paper>
    </Stack>
  );
}
