import { createHash } from 'node:crypto';
import { SignTask, TaskAction, TaskChat } from '../sign-tasks/sign-task.types';
import { Json, wholeNumber } from './import-report';

/**
 * This panel's tasks in the shape the reference panel (TG-SignPulse) exports and imports: `signs` is
 * an object keyed `task@account` with one entry per account of a task (its import stores each entry
 * under `signs/<account_name>/<name>/`), fields by its names, values in the forms its runner reads
 * (numeric chat ids as numbers, delays as strings, empty range fields on fixed and listen tasks).
 * Secrets of listen rules (bark_url, custom_url, the ServerChan key) are left out.
 */

/** Credentials in listen rules; never exported. */
export const TASK_SECRET_FIELDS = ['bark_url', 'custom_url', 'server_chan_key'] as const;

/** The reference panel's task file version its own exports carry. */
const REFERENCE_TASK_VERSION = 4;

function chatIdForm(value: number | string): number | string {
  return wholeNumber(value) ?? value;
}

function exportAction(action: TaskAction): Json {
  const out: Json = {};
  for (const [field, value] of Object.entries(action)) {
    if (value === undefined) continue;
    if ((TASK_SECRET_FIELDS as readonly string[]).includes(field)) continue;
    if (field === 'delay') out['delay'] = String(value);
    else if (field === 'forward_chat_id' || field === 'continue_chat_id') out[field] = chatIdForm(value as number | string);
    else if (field === 'continue_actions') out[field] = (value as TaskAction[]).map(exportAction);
    else out[field] = value;
  }
  return out;
}

function exportChat(chat: TaskChat): Json {
  const out: Json = { chat_id: chatIdForm(chat.chat_id) };
  if (chat.name !== undefined) out['name'] = chat.name;
  out['actions'] = chat.actions.map(exportAction);
  out['delete_after'] = chat.delete_after ?? null;
  out['action_interval'] = chat.action_interval ?? 1;
  out['message_thread_id'] = chat.message_thread_id ?? null;
  return out;
}

/** The secrets a task has that its export leaves out (`chats[0].actions[1].bark_url`). */
export function secretPathsOf(task: Pick<SignTask, 'chats'>): string[] {
  const paths: string[] = [];
  const walk = (actions: TaskAction[], path: string) =>
    actions.forEach((action, index) => {
      for (const field of TASK_SECRET_FIELDS) if (action[field]) paths.push(`${path}[${index}].${field}`);
      if (action.continue_actions) walk(action.continue_actions, `${path}[${index}].continue_actions`);
    });
  task.chats.forEach((chat, index) => walk(chat.actions, `chats[${index}].actions`));
  return paths;
}

/**
 * The entries of one task: keyed `name@account` for each account it runs for (`accounts`, with
 * `["*"]` resolved to the accounts there are now), or one entry keyed `name` when there is none.
 */
export function exportTaskEntries(task: SignTask, accounts: string[]): Array<[string, Json]> {
  const wildcard = task.account_names?.includes('*') ?? false;
  const accountNames = wildcard ? ['*'] : accounts;
  const body: Json = {
    _version: REFERENCE_TASK_VERSION,
    name: task.name,
    task_group_id: accounts.length > 1 ? createHash('sha256').update(`task-group:${task.name}`).digest('hex').slice(0, 32) : '',
    sign_at: task.sign_at ?? (task.execution_mode === 'range' ? (task.range_start ?? '') : ''),
    random_seconds: task.random_seconds,
    sign_interval: task.sign_interval ?? 1,
    chats: task.chats.map(exportChat),
    execution_mode: task.execution_mode,
    range_start: task.range_start ?? '',
    range_end: task.range_end ?? '',
    notify_on_failure: task.notify_on_failure,
    notify_on_success: task.notify_on_success,
    retry_count: task.retry_count,
    enabled: task.enabled,
  };
  if (accounts.length === 0) return [[task.name, { ...body, account_name: '', account_names: accountNames }]];
  return accounts.map((account) => [`${task.name}@${account}`, { ...body, account_name: account, account_names: wildcard ? ['*'] : accountNames }]);
}
