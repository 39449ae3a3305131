import type { Schemas } from '../../api/client';

/**
 * The task editor's form model and its rules. The form holds what a person types (strings, '' for
 * "not set"); `taskFromForm` turns it into the API's body and `formFromTask` back. `validateTask`
 * mirrors the API's rules (sign-tasks/task-validation.ts and the DTO) so most mistakes are caught
 * before saving; what only the server knows comes back as its 400 and `apiFieldErrors` maps each
 * problem to the field it names.
 */

export type ActionNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
export type ExecutionMode = 'fixed' | 'range' | 'listen';
export type MatchMode = 'contains' | 'exact' | 'regex' | 'all';
/** The channels saved in the settings that a rule can push through (their credentials stay in the settings). */
export const SETTINGS_PUSH_CHANNELS = ['ntfy', 'discord', 'slack', 'teams', 'gotify', 'email'] as const;
export type PushChannel = 'telegram' | 'forward' | 'bark' | 'custom' | 'server_chan' | 'continue' | (typeof SETTINGS_PUSH_CHANNELS)[number];

export const SIGN_ACTIONS: readonly ActionNumber[] = [1, 2, 3, 4, 5, 6, 7];
export const FOLLOW_UP_ACTIONS: readonly ActionNumber[] = [1, 2, 3, 4, 5, 6, 7, 9];
export const LISTEN_ACTION: ActionNumber = 8;
export const MATCH_MODES: readonly MatchMode[] = ['contains', 'exact', 'regex', 'all'];
export const PUSH_CHANNELS: readonly PushChannel[] = ['telegram', 'forward', 'bark', 'custom', 'server_chan', 'continue', ...SETTINGS_PUSH_CHANNELS];
export const EXECUTION_MODES: readonly ExecutionMode[] = ['fixed', 'range', 'listen'];

/** The API's bounds (TASK_LIMITS in panel-api). */
export const LIMITS = {
  nameLength: 64,
  retryCount: { min: 0, max: 99, default: 3 },
  randomSeconds: 86_400,
  delaySeconds: 3_600,
  actionInterval: 3_600,
  deleteAfter: 86_400 * 7,
  signInterval: 3_600,
  chats: 50,
  actionsPerChat: 50,
  keywords: 100,
  keywordLength: 512,
  textLength: 4_096,
  maxBatch: 20,
} as const;

type Numeric = number | '';

export interface ActionForm {
  action: ActionNumber;
  delay: string;
  text: string;
  dice: string;
  ai_prompt: string;
  ai_reply: boolean;
  send_text_search_regex: string;
  /** One keyword a line. */
  keywords: string;
  match_mode: MatchMode;
  ignore_case: boolean;
  ignore_self: boolean;
  sender_filter: string;
  active_time_start: string;
  active_time_end: string;
  push_channel: PushChannel;
  forward_chat_id: string;
  forward_message_thread_id: Numeric;
  bark_url: string;
  custom_url: string;
  server_chan_key: string;
  continue_chat_id: string;
  continue_message_thread_id: Numeric;
  continue_delete_after: Numeric;
  continue_actions: ActionForm[];
  bot_username: string;
  command_prefix: string;
  start_param: string;
  max_batch: Numeric;
  /** Actions 3 and 7: press the button of the bot's reply to the previous action. */
  from_reply: boolean;
  /** Action 8 throttles. */
  cooldown: Numeric;
  probability: Numeric;
  max_daily: Numeric;
  /** One user id a line. */
  exclude_user_ids: string;
}

export interface ChatForm {
  chat_id: string;
  name: string;
  message_thread_id: Numeric;
  action_interval: Numeric;
  delete_after: Numeric;
  actions: ActionForm[];
  /** Verdict patterns, one a line; a line written /…/ is an RE2 regular expression, any other line is text the answer contains. */
  verdict_success: string;
  verdict_already_done: string;
  verdict_failure: string;
  verdict_timeout: Numeric;
  verdict_from: string;
  verdict_ai_fallback: boolean;
  verdict_rerun_after_wait: boolean;
}

export interface TaskForm {
  name: string;
  all_accounts: boolean;
  accounts: string[];
  execution_mode: ExecutionMode;
  sign_at: string;
  range_start: string;
  range_end: string;
  random_seconds: Numeric;
  sign_interval: Numeric;
  retry_count: Numeric;
  enabled: boolean;
  notify_on_failure: boolean;
  notify_on_success: boolean;
  chats: ChatForm[];
}

export function emptyAction(action: ActionNumber = 1): ActionForm {
  return {
    action,
    delay: '',
    text: '',
    dice: action === 2 ? '🎲' : '',
    ai_prompt: '',
    ai_reply: false,
    send_text_search_regex: '',
    keywords: '',
    match_mode: 'contains',
    ignore_case: true,
    ignore_self: true,
    sender_filter: '',
    active_time_start: '',
    active_time_end: '',
    push_channel: 'telegram',
    forward_chat_id: '',
    forward_message_thread_id: '',
    bark_url: '',
    custom_url: '',
    server_chan_key: '',
    continue_chat_id: '',
    continue_message_thread_id: '',
    continue_delete_after: '',
    continue_actions: [],
    bot_username: '',
    command_prefix: '',
    start_param: '',
    max_batch: '',
    from_reply: false,
    cooldown: '',
    probability: '',
    max_daily: '',
    exclude_user_ids: '',
  };
}

export function emptyChat(mode: ExecutionMode = 'fixed'): ChatForm {
  return {
    chat_id: '',
    name: '',
    message_thread_id: '',
    action_interval: '',
    delete_after: '',
    actions: [emptyAction(mode === 'listen' ? LISTEN_ACTION : 1)],
    verdict_success: '',
    verdict_already_done: '',
    verdict_failure: '',
    verdict_timeout: '',
    verdict_from: '',
    verdict_ai_fallback: false,
    verdict_rerun_after_wait: true,
  };
}

type VerdictPattern = Schemas['VerdictPatternDto'];

/** Patterns as the editor shows them: one a line, regular expressions between slashes. */
export function patternLines(patterns: readonly VerdictPattern[] | undefined): string {
  return (patterns ?? []).map((p) => (p.mode === 'regex' ? `/${p.pattern}/` : p.pattern)).join('\n');
}

/** The lines of a pattern box as the API takes them. */
export function patternList(value: string): VerdictPattern[] {
  return value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => (line.length > 2 && line.startsWith('/') && line.endsWith('/') ? { mode: 'regex' as const, pattern: line.slice(1, -1) } : { mode: 'contains' as const, pattern: line }));
}

function verdictForm(verdict: Partial<Schemas['ChatVerdictDto']> | undefined): Pick<ChatForm, 'verdict_success' | 'verdict_already_done' | 'verdict_failure' | 'verdict_timeout' | 'verdict_from' | 'verdict_ai_fallback' | 'verdict_rerun_after_wait'> {
  return {
    verdict_success: patternLines(verdict?.success),
    verdict_already_done: patternLines(verdict?.already_done),
    verdict_failure: patternLines(verdict?.failure),
    verdict_timeout: typeof verdict?.timeout_seconds === 'number' ? verdict.timeout_seconds : '',
    verdict_from: verdict?.from ?? '',
    verdict_ai_fallback: verdict?.ai_fallback === true,
    verdict_rerun_after_wait: verdict?.rerun_after_wait !== false,
  };
}

function verdictBody(chat: ChatForm): Partial<Schemas['ChatVerdictDto']> | undefined {
  const success = patternList(chat.verdict_success);
  const alreadyDone = patternList(chat.verdict_already_done);
  const failure = patternList(chat.verdict_failure);
  if (success.length + alreadyDone.length + failure.length === 0) return undefined;
  const out: Partial<Schemas['ChatVerdictDto']> = {};
  if (success.length) out.success = success;
  if (alreadyDone.length) out.already_done = alreadyDone;
  if (failure.length) out.failure = failure;
  if (chat.verdict_timeout !== '') out.timeout_seconds = chat.verdict_timeout;
  if (chat.verdict_from.trim()) out.from = chat.verdict_from.trim();
  if (chat.verdict_ai_fallback) out.ai_fallback = true;
  if (!chat.verdict_rerun_after_wait) out.rerun_after_wait = false;
  return out;
}

export function emptyTask(): TaskForm {
  return {
    name: '',
    all_accounts: false,
    accounts: [],
    execution_mode: 'fixed',
    sign_at: '08:00',
    range_start: '08:00',
    range_end: '09:00',
    random_seconds: 0,
    sign_interval: '',
    retry_count: LIMITS.retryCount.default,
    enabled: true,
    notify_on_failure: true,
    notify_on_success: false,
    chats: [emptyChat()],
  };
}

const text = (value: string | undefined | null): string => value ?? '';
const numeric = (value: number | undefined | null): Numeric => (typeof value === 'number' ? value : '');
const chatText = (value: number | string | undefined | null): string => (value === undefined || value === null ? '' : String(value));

function actionForm(action: Schemas['TaskActionDto']): ActionForm {
  return {
    action: action.action,
    delay: action.delay === undefined ? '' : String(action.delay),
    text: text(action.text),
    dice: text(action.dice),
    ai_prompt: text(action.ai_prompt),
    ai_reply: action.ai_reply === true,
    send_text_search_regex: text(action.send_text_search_regex),
    keywords: (action.keywords ?? []).join('\n'),
    match_mode: action.match_mode ?? 'contains',
    ignore_case: action.ignore_case !== false,
    ignore_self: action.ignore_self !== false,
    sender_filter: text(action.sender_filter),
    active_time_start: text(action.active_time_start),
    active_time_end: text(action.active_time_end),
    push_channel: action.push_channel ?? 'telegram',
    forward_chat_id: chatText(action.forward_chat_id),
    forward_message_thread_id: numeric(action.forward_message_thread_id),
    bark_url: text(action.bark_url),
    custom_url: text(action.custom_url),
    server_chan_key: text(action.server_chan_key),
    continue_chat_id: chatText(action.continue_chat_id),
    continue_message_thread_id: numeric(action.continue_message_thread_id),
    continue_delete_after: numeric(action.continue_delete_after),
    continue_actions: (action.continue_actions ?? []).map(actionForm),
    bot_username: text(action.bot_username),
    command_prefix: text(action.command_prefix),
    start_param: text(action.start_param),
    max_batch: numeric(action.max_batch),
    from_reply: action.from_reply === true,
    cooldown: numeric(action.cooldown),
    probability: numeric(action.probability),
    max_daily: numeric(action.max_daily),
    exclude_user_ids: (action.exclude_user_ids ?? []).map(String).join('\n'),
  };
}

/** The form for a stored task (edit). */
export function formFromTask(task: Schemas['SignTaskDto']): TaskForm {
  const all = task.account_names?.includes('*') ?? false;
  return {
    name: task.name,
    all_accounts: all,
    accounts: all ? [] : (task.account_names ?? (task.account_name ? [task.account_name] : [])),
    execution_mode: task.execution_mode,
    sign_at: text(task.sign_at),
    range_start: text(task.range_start),
    range_end: text(task.range_end),
    random_seconds: numeric(task.random_seconds),
    sign_interval: numeric(task.sign_interval),
    retry_count: numeric(task.retry_count),
    enabled: task.enabled !== false,
    notify_on_failure: task.notify_on_failure !== false,
    notify_on_success: task.notify_on_success === true,
    chats: task.chats.map((chat) => ({
      chat_id: chatText(chat.chat_id),
      name: text(chat.name),
      message_thread_id: numeric(chat.message_thread_id),
      action_interval: numeric(chat.action_interval),
      delete_after: numeric(chat.delete_after),
      actions: chat.actions.map(actionForm),
      ...verdictForm(chat.verdict),
    })),
  };
}

/** A chat id as the API takes it: a number for numeric ids, the text for `@username` and `me`. */
export function chatIdValue(value: string): number | string {
  const trimmed = value.trim();
  return /^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : trimmed;
}

function delayValue(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed.replace(/\s+/g, '');
}

export function keywordList(value: string): string[] {
  return value
    .split('\n')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword !== '');
}

type ActionBody = Partial<Omit<Schemas['TaskActionDto'], 'continue_actions'>> & { action: ActionNumber; continue_actions?: ActionBody[] };

function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined | ''): void {
  if (value !== undefined && value !== '') target[key] = value as T[K];
}

/** Only the fields the action's number uses, so switching an action's kind leaves nothing stale behind. */
function actionBody(form: ActionForm, context: 'sign' | 'listen' | 'follow_up'): ActionBody {
  const body: ActionBody = { action: form.action };
  put(body, 'delay', delayValue(form.delay));
  switch (form.action) {
    case 1:
      put(body, 'text', form.text);
      if (context === 'follow_up') {
        put(body, 'send_text_search_regex', form.send_text_search_regex);
        if (form.ai_reply) {
          body.ai_reply = true;
          put(body, 'ai_prompt', form.ai_prompt);
        }
      }
      break;
    case 2:
      put(body, 'dice', form.dice);
      break;
    case 3:
      put(body, 'text', form.text);
      if (form.from_reply) body.from_reply = true;
      break;
    case 4:
    case 5:
    case 6:
    case 7:
      put(body, 'ai_prompt', form.ai_prompt);
      if (form.action === 7 && form.from_reply) body.from_reply = true;
      break;
    case 8: {
      body.keywords = keywordList(form.keywords);
      body.match_mode = form.match_mode;
      body.ignore_case = form.ignore_case;
      body.ignore_self = form.ignore_self;
      put(body, 'sender_filter', form.sender_filter.trim());
      put(body, 'active_time_start', form.active_time_start.trim());
      put(body, 'active_time_end', form.active_time_end.trim());
      put(body, 'cooldown', form.cooldown);
      put(body, 'probability', form.probability);
      put(body, 'max_daily', form.max_daily);
      if (keywordList(form.exclude_user_ids).length) body.exclude_user_ids = keywordList(form.exclude_user_ids);
      body.push_channel = form.push_channel;
      if (form.push_channel === 'forward') {
        put(body, 'forward_chat_id', form.forward_chat_id.trim() === '' ? undefined : chatIdValue(form.forward_chat_id));
        put(body, 'forward_message_thread_id', form.forward_message_thread_id);
      }
      if (form.push_channel === 'bark') put(body, 'bark_url', form.bark_url.trim());
      if (form.push_channel === 'custom') put(body, 'custom_url', form.custom_url.trim());
      if (form.push_channel === 'server_chan') put(body, 'server_chan_key', form.server_chan_key.trim());
      if (form.push_channel === 'continue') {
        put(body, 'continue_chat_id', form.continue_chat_id.trim() === '' ? undefined : chatIdValue(form.continue_chat_id));
        put(body, 'continue_message_thread_id', form.continue_message_thread_id);
        put(body, 'continue_delete_after', form.continue_delete_after);
        body.continue_actions = form.continue_actions.map((followUp) => actionBody(followUp, 'follow_up'));
      }
      break;
    }
    case 9:
      put(body, 'bot_username', form.bot_username.trim());
      put(body, 'command_prefix', form.command_prefix.trim());
      put(body, 'start_param', form.start_param);
      put(body, 'max_batch', form.max_batch);
      break;
  }
  return body;
}

/** The body of POST /api/sign-tasks and PUT /api/sign-tasks/{name}. */
export function taskFromForm(form: TaskForm): Schemas['SignTaskInputDto'] {
  const listen = form.execution_mode === 'listen';
  const body: Omit<Partial<Schemas['SignTaskInputDto']>, 'chats'> & { chats: Record<string, unknown>[] } = {
    name: form.name.trim(),
    execution_mode: form.execution_mode,
    enabled: form.enabled,
    notify_on_failure: form.notify_on_failure,
    notify_on_success: form.notify_on_success,
    chats: form.chats.map((chat) => {
      const out: Record<string, unknown> = { chat_id: chatIdValue(chat.chat_id), actions: chat.actions.map((action) => actionBody(action, listen ? 'listen' : 'sign')) };
      if (chat.name.trim()) out['name'] = chat.name.trim();
      for (const field of ['message_thread_id', 'action_interval', 'delete_after'] as const) if (chat[field] !== '') out[field] = chat[field];
      const verdict = listen ? undefined : verdictBody(chat);
      if (verdict) out['verdict'] = verdict;
      return out;
    }),
  };
  if (form.all_accounts) body.account_names = ['*'];
  else if (form.accounts.length === 1) body.account_name = form.accounts[0];
  else body.account_names = [...form.accounts];
  if (form.execution_mode === 'fixed') body.sign_at = form.sign_at.trim();
  if (form.execution_mode === 'range') {
    body.range_start = form.range_start.trim();
    body.range_end = form.range_end.trim();
  }
  if (!listen) put(body, 'random_seconds', form.random_seconds);
  put(body, 'sign_interval', form.sign_interval);
  put(body, 'retry_count', form.retry_count);
  // The generated type marks fields with a default (ignore_case, max_batch) as present; the API takes them as optional.
  return body as unknown as Schemas['SignTaskInputDto'];
}

/** A problem found in the form: an i18n key under `tasks.errors` and its values. */
export interface FormIssue {
  key: string;
  values?: Record<string, string | number>;
}

export type FormIssues = Record<string, FormIssue>;

const TIME_OF_DAY = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const HOUR_MINUTE = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31}|me)$/;
const ACCOUNT_NAME = /^(?!\.)[\p{L}\p{M}\p{N}_.-]{1,64}$/u;
const BOT_USERNAME = /^@?[A-Za-z][A-Za-z0-9_]{3,31}$/;
const COMMAND = /^\/?[A-Za-z0-9_]{1,64}$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;
const DELAY_RANGE = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)$/;

function secondsOfDay(value: string): number | undefined {
  const match = TIME_OF_DAY.exec(value.trim());
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0) : undefined;
}

/** `HH:MM[:SS]` or a 5/6-field cron expression whose fields hold cron characters (the server checks the rest). */
export function looksLikeSchedule(value: string): boolean {
  const trimmed = value.trim();
  if (TIME_OF_DAY.test(trimmed)) return true;
  const fields = trimmed.split(/\s+/);
  return (fields.length === 5 || fields.length === 6) && fields.every((field) => /^[\d*?,/\-A-Za-z#LW]+$/.test(field));
}

function isDelay(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '') return true;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) <= LIMITS.delaySeconds;
  const range = DELAY_RANGE.exec(trimmed);
  return !!range && Number(range[1]) <= Number(range[2]) && Number(range[2]) <= LIMITS.delaySeconds;
}

function inRange(value: Numeric, min: number, max: number): boolean {
  return value === '' || (Number.isInteger(value) && value >= min && value <= max);
}

/** Problems of the schedule fields (also what decides whether a preview is asked for). */
export function scheduleIssues(form: Pick<TaskForm, 'execution_mode' | 'sign_at' | 'range_start' | 'range_end' | 'random_seconds'>): FormIssues {
  const issues: FormIssues = {};
  if (form.execution_mode === 'fixed') {
    if (form.sign_at.trim() === '') issues['sign_at'] = { key: 'required' };
    else if (!looksLikeSchedule(form.sign_at)) issues['sign_at'] = { key: 'schedule' };
  }
  if (form.execution_mode === 'range') {
    const start = secondsOfDay(form.range_start);
    const end = secondsOfDay(form.range_end);
    if (start === undefined) issues['range_start'] = { key: 'timeOfDay' };
    if (end === undefined) issues['range_end'] = { key: 'timeOfDay' };
    else if (start === end) issues['range_end'] = { key: 'rangeSame' };
  }
  if (form.execution_mode !== 'listen' && !inRange(form.random_seconds, 0, LIMITS.randomSeconds)) issues['random_seconds'] = { key: 'between', values: { min: 0, max: LIMITS.randomSeconds } };
  return issues;
}

function actionIssues(action: ActionForm, path: string, context: 'sign' | 'listen' | 'follow_up', issues: FormIssues): void {
  const allowed = context === 'sign' ? SIGN_ACTIONS : context === 'listen' ? [LISTEN_ACTION] : FOLLOW_UP_ACTIONS;
  if (!allowed.includes(action.action)) issues[`${path}.action`] = { key: context === 'listen' ? 'listenOnly' : 'actionNotHere' };
  if (!isDelay(action.delay)) issues[`${path}.delay`] = { key: 'delay', values: { max: LIMITS.delaySeconds } };
  const tooLong = (field: 'text' | 'ai_prompt') => action[field].length > LIMITS.textLength && (issues[`${path}.${field}`] = { key: 'tooLong', values: { max: LIMITS.textLength } });
  switch (action.action) {
    case 1: {
      const computed = context === 'follow_up' && (action.ai_reply || action.send_text_search_regex.trim() !== '');
      if (!action.text.trim() && !computed) issues[`${path}.text`] = { key: 'required' };
      if (context === 'follow_up' && action.ai_reply && !action.ai_prompt.trim()) issues[`${path}.ai_prompt`] = { key: 'aiPromptForReply' };
      tooLong('text');
      break;
    }
    case 2:
      if (!action.dice.trim()) issues[`${path}.dice`] = { key: 'required' };
      else if (action.dice.length > 16) issues[`${path}.dice`] = { key: 'tooLong', values: { max: 16 } };
      break;
    case 3:
      if (!action.text.trim()) issues[`${path}.text`] = { key: 'required' };
      tooLong('text');
      break;
    case 4:
    case 5:
    case 6:
    case 7:
      tooLong('ai_prompt');
      break;
    case 8: {
      const keywords = keywordList(action.keywords);
      if (keywords.length === 0) issues[`${path}.keywords`] = { key: 'keywordsRequired' };
      else if (keywords.length > LIMITS.keywords) issues[`${path}.keywords`] = { key: 'tooMany', values: { max: LIMITS.keywords } };
      else if (keywords.some((keyword) => keyword.length > LIMITS.keywordLength)) issues[`${path}.keywords`] = { key: 'tooLong', values: { max: LIMITS.keywordLength } };
      const start = action.active_time_start.trim();
      const end = action.active_time_end.trim();
      if (start && !HOUR_MINUTE.test(start)) issues[`${path}.active_time_start`] = { key: 'hourMinute' };
      if (end && !HOUR_MINUTE.test(end)) issues[`${path}.active_time_end`] = { key: 'hourMinute' };
      if (!!start !== !!end) issues[`${path}.${start ? 'active_time_end' : 'active_time_start'}`] = { key: 'activeTogether' };
      const channel = action.push_channel;
      if (channel === 'forward') {
        if (!action.forward_chat_id.trim()) issues[`${path}.forward_chat_id`] = { key: 'required' };
        else if (!CHAT_ID.test(action.forward_chat_id.trim())) issues[`${path}.forward_chat_id`] = { key: 'chatId' };
      }
      if (channel === 'bark' && !HTTP_URL.test(action.bark_url.trim())) issues[`${path}.bark_url`] = { key: action.bark_url.trim() ? 'url' : 'required' };
      if (channel === 'custom' && !HTTP_URL.test(action.custom_url.trim())) issues[`${path}.custom_url`] = { key: action.custom_url.trim() ? 'url' : 'required' };
      if (channel === 'server_chan' && !action.server_chan_key.trim()) issues[`${path}.server_chan_key`] = { key: 'required' };
      if (channel === 'continue') {
        if (action.continue_chat_id.trim() && !CHAT_ID.test(action.continue_chat_id.trim())) issues[`${path}.continue_chat_id`] = { key: 'chatId' };
        if (!inRange(action.continue_delete_after, 0, LIMITS.deleteAfter)) issues[`${path}.continue_delete_after`] = { key: 'between', values: { min: 0, max: LIMITS.deleteAfter } };
        if (action.continue_actions.length === 0) issues[`${path}.continue_actions`] = { key: 'followUpRequired' };
        action.continue_actions.forEach((followUp, index) => actionIssues(followUp, `${path}.continue_actions.${index}`, 'follow_up', issues));
      }
      break;
    }
    case 9:
      if (action.bot_username.trim() && !BOT_USERNAME.test(action.bot_username.trim())) issues[`${path}.bot_username`] = { key: 'botUsername' };
      if (action.command_prefix.trim() && !COMMAND.test(action.command_prefix.trim())) issues[`${path}.command_prefix`] = { key: 'command' };
      if (!inRange(action.max_batch, 1, LIMITS.maxBatch)) issues[`${path}.max_batch`] = { key: 'between', values: { min: 1, max: LIMITS.maxBatch } };
      break;
  }
}

/** Every problem the API would refuse the form for that can be known without asking it. */
export function validateTask(form: TaskForm): FormIssues {
  const issues: FormIssues = {};
  const name = form.name.trim();
  if (!name) issues['name'] = { key: 'required' };
  else if ([...name].length > LIMITS.nameLength || /\p{Cc}/u.test(name)) issues['name'] = { key: 'name', values: { max: LIMITS.nameLength } };
  if (!form.all_accounts) {
    if (form.accounts.length === 0) issues['accounts'] = { key: 'accountsRequired' };
    else if (form.accounts.some((account) => !ACCOUNT_NAME.test(account))) issues['accounts'] = { key: 'accountName' };
  }
  Object.assign(issues, scheduleIssues(form));
  if (!inRange(form.retry_count, LIMITS.retryCount.min, LIMITS.retryCount.max)) issues['retry_count'] = { key: 'between', values: { min: 0, max: LIMITS.retryCount.max } };
  if (!inRange(form.sign_interval, 0, LIMITS.signInterval)) issues['sign_interval'] = { key: 'between', values: { min: 0, max: LIMITS.signInterval } };
  if (form.chats.length === 0) issues['chats'] = { key: 'chatsRequired' };
  if (form.chats.length > LIMITS.chats) issues['chats'] = { key: 'tooMany', values: { max: LIMITS.chats } };
  const listen = form.execution_mode === 'listen';
  form.chats.forEach((chat, chatIndex) => {
    const path = `chats.${chatIndex}`;
    if (!chat.chat_id.trim()) issues[`${path}.chat_id`] = { key: 'required' };
    else if (!CHAT_ID.test(chat.chat_id.trim())) issues[`${path}.chat_id`] = { key: 'chatId' };
    if (chat.message_thread_id !== '' && !inRange(chat.message_thread_id, 1, Number.MAX_SAFE_INTEGER)) issues[`${path}.message_thread_id`] = { key: 'positive' };
    if (!inRange(chat.action_interval, 0, LIMITS.actionInterval)) issues[`${path}.action_interval`] = { key: 'between', values: { min: 0, max: LIMITS.actionInterval } };
    if (!inRange(chat.delete_after, 1, LIMITS.deleteAfter)) issues[`${path}.delete_after`] = { key: 'between', values: { min: 1, max: LIMITS.deleteAfter } };
    if (chat.actions.length === 0) issues[`${path}.actions`] = { key: listen ? 'rulesRequired' : 'actionsRequired' };
    if (chat.actions.length > LIMITS.actionsPerChat) issues[`${path}.actions`] = { key: 'tooMany', values: { max: LIMITS.actionsPerChat } };
    chat.actions.forEach((action, actionIndex) => actionIssues(action, `${path}.actions.${actionIndex}`, listen ? 'listen' : 'sign', issues));
  });
  return issues;
}

/** The editor's steps; a field path belongs to one of them. */
export const STEPS = ['basics', 'schedule', 'chats', 'review'] as const;
export type Step = (typeof STEPS)[number];

export function stepOfField(path: string): Step {
  if (path.startsWith('chats')) return 'chats';
  if (['sign_at', 'range_start', 'range_end', 'random_seconds'].includes(path)) return 'schedule';
  if (['retry_count', 'sign_interval', 'enabled', 'notify_on_failure', 'notify_on_success'].includes(path)) return 'review';
  return 'basics';
}

/** Fields the form shows an error on (the API's problem paths mapped onto them). */
const FIELD_PATH = /^(name|account_names?|sign_at|range_start|range_end|random_seconds|sign_interval|retry_count|chats(?:\.\d+(?:\.(?:chat_id|name|message_thread_id|action_interval|delete_after|verdict(?:\.[a-z_]+)?|actions(?:\.\d+(?:\.[a-z_]+(?:\.\d+(?:\.[a-z_]+)?)?)?)?))?)?)\b/;

/**
 * The form field that shows a problem of the API's field `path` (`chats.0.actions.1.keywords.3` ->
 * the keywords box, `account_names` -> the accounts), or undefined when the form has no such field.
 */
export function taskFormField(path: string): string | undefined {
  if (/^(account_names?|accounts)$/.test(path)) return 'accounts';
  const match = FIELD_PATH.exec(path);
  if (!match || match[1].length !== path.length) return undefined;
  return match[1].replace(/\.keywords\.\d+$/, '.keywords').replace(/(\.actions\.\d+)$/, '$1.action').replace(/(\.continue_actions\.\d+)$/, '$1.action');
}

/**
 * The API's 400 message (`problem; problem; …`) as errors per form field where a problem names one
 * (`chats.0.actions.1.text is required …` → `chats.0.actions.1.text`), and the rest for a summary.
 */
export function apiFieldErrors(message: string): { fields: Record<string, string>; other: string[] } {
  const fields: Record<string, string> = {};
  const other: string[] = [];
  for (const problem of message.split('; ').map((part) => part.trim()).filter(Boolean)) {
    const match = FIELD_PATH.exec(problem);
    let path = match?.[1];
    if (path === 'account_name' || path === 'account_names') path = 'accounts';
    if (/^account "/.test(problem) || /^give exactly one of account_name/.test(problem)) path = 'accounts';
    if (/^range mode needs/.test(problem)) path = 'range_start';
    // keywords.3 → the keywords box; a bare chats.0.actions.1 (a rule about the whole step) → its action field.
    if (path) path = path.replace(/\.keywords\.\d+$/, '.keywords').replace(/(\.actions\.\d+)$/, '$1.action').replace(/(\.continue_actions\.\d+)$/, '$1.action');
    // chats.0.verdict.success.2.pattern → the chat's success pattern box.
    if (path) path = path.replace(/\.verdict\.(success|already_done|failure|from)$/, '.verdict_$1').replace(/\.verdict\.timeout_seconds$/, '.verdict_timeout').replace(/\.verdict$/, '.verdict_success');
    if (path) fields[path] = fields[path] ? `${fields[path]}; ${problem}` : problem;
    else other.push(problem);
  }
  return { fields, other };
}
