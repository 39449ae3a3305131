import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { CronTime, validateCronExpression } from 'cron';
import { createHash } from 'node:crypto';
import { SignTaskInputDto } from './dto/sign-task.dto';
import { DEEP_LINK_ACTION, FOLLOW_UP_ACTIONS, LISTEN_ACTION, SIGN_ACTIONS, SignTaskInput, TaskAction, TaskChat } from './sign-task.types';
import { linearRegexProblem } from '../common/linear-regex';
import { FieldProblem, fieldRuleSentence } from '@shared/http-service';

/**
 * A task name is a display name: any text (emoji and punctuation included, as people name tasks in
 * the panel they migrate from) of 1-64 characters, without control characters and without leading
 * or trailing spaces. Where a name must become a file or folder name, `taskFileStem` derives one.
 */
const TASK_NAME_LIMIT = 64;
export const TASK_NAME_RULE = '1-64 characters, no control characters, no leading or trailing spaces';

export function isTaskName(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  if ([...value].length > TASK_NAME_LIMIT) return false;
  if (/\p{Cc}/u.test(value)) return false;
  return value.trim() === value;
}

/** Names that are their own file name (every name the earlier rule allowed keeps its file). */
const PATH_SAFE_NAME = /^(?![.\s])[\p{L}\p{N}_.\- ]{1,64}$/u;

/**
 * The file (and folder) name a task is stored under: the name itself when it is path-safe (letters,
 * digits, `_`, `-`, `.`, inner spaces; no leading dot), otherwise its safe characters followed by `~`
 * and a hash of the whole name, so `签到 🎉/每日` and `签到 🎉?每日` get different files.
 */
export function taskFileStem(name: string): string {
  if (PATH_SAFE_NAME.test(name) && name.trimEnd() === name) return name;
  const readable = [...name.replace(/[^\p{L}\p{N}_\- ]+/gu, '_').replace(/^[\s_.]+|\s+$/gu, '')].slice(0, 40).join('').trim();
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12);
  return `${readable || 'task'}~${hash}`;
}

/**
 * Account names in tasks: letters and digits of any script, `_`, `-`, `.` (the account rule, see
 * accounts/account-name.ts, without its reserved route names, which a task may still mention).
 */
const ACCOUNT_NAME_PATTERN = /^(?!\.)[\p{L}\p{M}\p{N}_.-]{1,64}$/u;
const TIME_OF_DAY_PATTERN = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** Seconds after midnight of `HH:MM[:SS]`, or undefined when it is not one. */
export function parseTimeOfDay(value: string): number | undefined {
  const match = TIME_OF_DAY_PATTERN.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
}

/**
 * The cron expression (6 fields, seconds first) a `sign_at` stands for: `HH:MM[:SS]` becomes a daily
 * expression; a 5-field cron gets second 0. Undefined when `sign_at` is neither.
 */
export function cronOfSignAt(signAt: string): string | undefined {
  const trimmed = signAt.trim();
  const seconds = parseTimeOfDay(trimmed);
  if (seconds !== undefined) {
    return `${seconds % 60} ${Math.floor(seconds / 60) % 60} ${Math.floor(seconds / 3600)} * * *`;
  }
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return undefined;
  const expression = fields.length === 5 ? `0 ${trimmed}` : fields.join(' ');
  return validateCronExpression(expression).valid ? expression : undefined;
}

/**
 * The shortest time allowed between two runs of one schedule. A run takes seconds to minutes (up to
 * 300 s), each account waits 5 s between runs, and Telegram answers floods of messages with
 * FLOOD_WAIT: a check-in more often than once a minute only gets the account limited. Documented in
 * docs/sign-tasks.md.
 */
export const MINIMUM_SCHEDULE_INTERVAL_SECONDS = 60;

/** The values a numeric cron field (`*`, `a`, `a-b`, lists, `/step`) stands for; undefined for names (JAN, MON) or other forms. */
function cronFieldValues(field: string, min: number, max: number): Set<number> | undefined {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^(\*|\?|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) return undefined;
    const step = match[4] ? Number(match[4]) : 1;
    const wildcard = match[1] === '*' || match[1] === '?';
    const from = wildcard ? min : Number(match[2]);
    const to = wildcard ? max : match[3] !== undefined ? Number(match[3]) : match[4] ? max : from;
    if (step < 1) return undefined;
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Why a valid cron expression (6 fields, from cronOfSignAt) is no usable schedule, or undefined:
 * it fires more than once within a minute (cron fields are independent, so that is exactly a
 * seconds field with more than one value), or never (`0 0 31 2 *`: no month has such a day). Plain
 * numeric fields are judged by arithmetic, in microseconds; other forms ask the cron library, which
 * searches up to 8 years ahead.
 */
export function scheduleProblem(expression: string, now = new Date()): string | undefined {
  const [second, , , dayOfMonth, month, dayOfWeek] = expression.split(' ');
  const seconds = cronFieldValues(second, 0, 59);
  const days = cronFieldValues(dayOfMonth, 1, 31);
  const months = cronFieldValues(month, 1, 12);
  const never = 'never fires (no date in the next 8 years matches it, e.g. 31 February)';
  // No "; " inside: a 400 joins the problems of a task with "; " and the web editor splits them back per field.
  const often = `fires more often than once a minute (the shortest interval allowed is ${MINIMUM_SCHEDULE_INTERVAL_SECONDS} seconds: one value in the seconds field)`;
  if (seconds && days && months && (dayOfWeek === '*' || dayOfWeek === '?')) {
    if (seconds.size > 1) return often;
    const someDayExists = [...months].some((m) => [...days].some((d) => d <= DAYS_IN_MONTH[m - 1]));
    return someDayExists ? undefined : never;
  }
  // Weekdays only (`0 0 8 * * 1-5`): every week has them, so it fires; only the seconds matter.
  if (seconds && (dayOfMonth === '*' || dayOfMonth === '?') && months && cronFieldValues(dayOfWeek, 0, 7)) return seconds.size > 1 ? often : undefined;
  let first: Date;
  let next: Date;
  try {
    const time = new CronTime(expression, 'UTC');
    const upcoming = time.getNextDateFrom(now).toJSDate();
    first = time.getNextDateFrom(new Date(Math.floor(upcoming.getTime() / 60_000) * 60_000 - 1)).toJSDate();
    next = time.getNextDateFrom(first).toJSDate();
  } catch {
    return never;
  }
  return next.getTime() - first.getTime() < MINIMUM_SCHEDULE_INTERVAL_SECONDS * 1000 ? often : undefined;
}

/** Flattens class-validator errors to `chats.0.actions.1.delay must be …` lines. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      lines.push(message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`);
    }
    if (error.children?.length) lines.push(...flattenValidationErrors(error.children, path));
  }
  return lines;
}

function actionProblems(action: TaskAction, path: string, context: 'sign' | 'listen' | 'follow_up'): string[] {
  const problems: string[] = [];
  const allowed = context === 'sign' ? SIGN_ACTIONS : context === 'listen' ? [LISTEN_ACTION] : FOLLOW_UP_ACTIONS;
  if (!allowed.includes(action.action)) {
    if (action.action === LISTEN_ACTION) problems.push(`${path}.action 8 (keyword listen) belongs only to tasks with execution_mode listen`);
    else if (action.action === DEEP_LINK_ACTION) problems.push(`${path}.action 9 (deep link) is allowed only in continue_actions of a listen rule`);
    else if (context === 'listen') problems.push(`${path}.action ${action.action}: a listen task's chats hold only action 8 rules (follow-ups go in continue_actions)`);
    else problems.push(`${path}.action ${action.action} is not allowed here`);
    return problems;
  }
  switch (action.action) {
    case 1: {
      const computed = action.ai_reply === true || action.send_text_search_regex !== undefined;
      if (computed && context !== 'follow_up') problems.push(`${path}: ai_reply and send_text_search_regex answer a hit message, so they belong to continue_actions of a listen rule`);
      if (action.ai_reply === true && !action.ai_prompt) problems.push(`${path}.ai_prompt is required with ai_reply`);
      if (action.send_text_search_regex !== undefined) problems.push(...regexProblems(action.send_text_search_regex, `${path}.send_text_search_regex`, false));
      if (!action.text && !computed) problems.push(`${path}.text is required for action 1 (send text)`);
      break;
    }
    case 2:
      if (!action.dice) problems.push(`${path}.dice is required for action 2 (send dice)`);
      break;
    case 3:
      if (!action.text) problems.push(`${path}.text is required for action 3 (click button)`);
      break;
    case 8:
      problems.push(...listenRuleProblems(action, path));
      break;
    default:
      break;
  }
  if (action.action !== DEEP_LINK_ACTION) {
    for (const field of ['bot_username', 'command_prefix', 'start_param', 'max_batch'] as const) {
      if (action[field] !== undefined) problems.push(`${path}.${field} belongs to action 9 only`);
    }
  }
  if (action.action !== LISTEN_ACTION) {
    for (const field of ['keywords', 'match_mode', 'push_channel', 'continue_actions', 'continue_delete_after', 'cooldown', 'probability', 'max_daily', 'exclude_user_ids'] as const) {
      if (action[field] !== undefined) problems.push(`${path}.${field} belongs to action 8 rules only`);
    }
  }
  if (action.from_reply !== undefined && action.action !== 3 && action.action !== 7) problems.push(`${path}.from_reply belongs to actions 3 and 7 only`);
  return problems;
}

const PUSH_CHANNEL_NEEDS: Partial<Record<NonNullable<TaskAction['push_channel']>, 'forward_chat_id' | 'bark_url' | 'custom_url' | 'server_chan_key'>> = {
  forward: 'forward_chat_id',
  bark: 'bark_url',
  custom: 'custom_url',
  server_chan: 'server_chan_key',
};

/** Patterns run on chat text by RE2 (linear time): refused here with the reason when RE2 cannot run them. */
function regexProblems(expression: string, path: string, ignoreCase: boolean): string[] {
  const problem = linearRegexProblem(expression, ignoreCase);
  return problem === undefined ? [] : [`${path} is not a valid regular expression for RE2: ${problem}`];
}

/**
 * Listen rules whose push channel has no URL or key. Refused when a task is written through the
 * API; an import keeps such a task (its export left the secret out) and says so in the preview.
 */
export function pushSecretProblems(task: Pick<SignTaskInput, 'chats'>): string[] {
  const problems: string[] = [];
  task.chats.forEach((chat, chatIndex) =>
    chat.actions.forEach((action, actionIndex) => {
      if (action.action !== LISTEN_ACTION) return;
      const required = PUSH_CHANNEL_NEEDS[action.push_channel ?? 'telegram'];
      if (required && required !== 'forward_chat_id' && !action[required]) {
        problems.push(`chats.${chatIndex}.actions.${actionIndex}.${required} is required for push_channel ${action.push_channel}`);
      }
    }),
  );
  return problems;
}

function listenRuleProblems(rule: TaskAction, path: string): string[] {
  const problems: string[] = [];
  const keywords = rule.keywords ?? [];
  if (keywords.length === 0) problems.push(`${path}.keywords needs at least one keyword`);
  if ((rule.match_mode ?? 'contains') === 'regex') {
    keywords.forEach((keyword, index) => problems.push(...regexProblems(keyword, `${path}.keywords.${index}`, rule.ignore_case !== false)));
  }
  for (const field of ['active_time_start', 'active_time_end'] as const) {
    const value = rule[field];
    if (value !== undefined && (parseTimeOfDay(value) === undefined || value.split(':').length !== 2)) {
      problems.push(`${path}.${field} must be HH:MM`);
    }
  }
  if ((rule.active_time_start === undefined) !== (rule.active_time_end === undefined)) {
    problems.push(`${path}: active_time_start and active_time_end go together`);
  }
  const channel = rule.push_channel ?? 'telegram';
  // continue without continue_chat_id runs the follow-ups in the chat of the hit.
  const needs = PUSH_CHANNEL_NEEDS;
  // A missing secret (bark_url, custom_url, server_chan_key) is checked on API writes only
  // (pushSecretProblems): an imported export leaves secrets out, and its task must still load.
  const required = needs[channel];
  if (required === 'forward_chat_id' && (rule[required] === undefined || rule[required] === '')) problems.push(`${path}.${required} is required for push_channel ${channel}`);
  for (const field of ['bark_url', 'custom_url'] as const) {
    const value = rule[field];
    if (value !== undefined && !/^https?:\/\/[^\s]+$/i.test(value)) problems.push(`${path}.${field} must be an http(s) URL`);
  }
  if (channel === 'continue') {
    const followUps = rule.continue_actions ?? [];
    if (followUps.length === 0) problems.push(`${path}.continue_actions needs at least one action for push_channel continue`);
    followUps.forEach((followUp, index) => problems.push(...actionProblems(followUp, `${path}.continue_actions.${index}`, 'follow_up')));
  } else if (rule.continue_actions?.length) {
    problems.push(`${path}.continue_actions apply only to push_channel continue`);
  }
  return problems;
}

function chatProblems(chat: TaskChat, path: string, listen: boolean): string[] {
  const problems = chat.actions.flatMap((action, index) => actionProblems(action, `${path}.actions.${index}`, listen ? 'listen' : 'sign'));
  if (chat.verdict) {
    if (listen) problems.push(`${path}.verdict applies to sign tasks only`);
    for (const key of ['success', 'already_done', 'failure'] as const) {
      (chat.verdict[key] ?? []).forEach((pattern, index) => {
        if (pattern.mode === 'regex') problems.push(...regexProblems(pattern.pattern, `${path}.verdict.${key}.${index}.pattern`, true));
      });
    }
  }
  return problems;
}

/**
 * What is wrong with a task's schedule fields (sign_at, range_start, range_end for its execution
 * mode): the rules task writes and the schedule preview share, so a preview cannot accept what a
 * save refuses.
 */
export function scheduleRuleProblems(
  task: Pick<SignTaskInput, 'execution_mode' | 'sign_at' | 'range_start' | 'range_end'>,
  options: { checkSchedule?: boolean } = {},
): string[] {
  const checkSchedule = options.checkSchedule ?? true;
  const problems: string[] = [];
  if (task.execution_mode === 'fixed' && !task.sign_at) problems.push('sign_at is required in fixed mode');
  else if (task.sign_at !== undefined && task.sign_at !== '') {
    const expression = cronOfSignAt(task.sign_at);
    const problem = expression === undefined || !checkSchedule ? undefined : scheduleProblem(expression);
    if (!expression) problems.push('sign_at must be a 5- or 6-field cron expression or HH:MM[:SS]');
    else if (problem) problems.push(`sign_at ${problem}`);
  }
  if (task.execution_mode === 'range') {
    const start = task.range_start === undefined ? undefined : parseTimeOfDay(task.range_start);
    const end = task.range_end === undefined ? undefined : parseTimeOfDay(task.range_end);
    if (start === undefined || end === undefined) problems.push('range mode needs range_start and range_end as HH:MM[:SS]');
    else if (start === end) problems.push('range_end must differ from range_start');
  } else {
    for (const field of ['range_start', 'range_end'] as const) {
      const value = task[field];
      if (value !== undefined && parseTimeOfDay(value) === undefined) problems.push(`${field} must be HH:MM[:SS]`);
    }
  }
  return problems;
}

/**
 * The rules across fields that class-validator cannot state: accounts, schedule by mode, which
 * actions belong where and what each action needs, regular expressions that compile.
 */
export function taskRuleProblems(task: SignTaskInput, options: { checkSchedule?: boolean } = {}): string[] {
  const checkSchedule = options.checkSchedule ?? true;
  const problems: string[] = [];
  if (!isTaskName(task.name)) problems.push(`name must be ${TASK_NAME_RULE}`);
  const hasSingle = task.account_name !== undefined && task.account_name !== '';
  const hasMany = task.account_names !== undefined;
  if (hasSingle === hasMany) problems.push('give exactly one of account_name or account_names');
  for (const name of [...(hasSingle ? [task.account_name as string] : []), ...(task.account_names ?? [])]) {
    if (name !== '*' && !ACCOUNT_NAME_PATTERN.test(name)) problems.push(`account "${name}" is not a valid account name`);
  }
  if (task.account_names?.includes('*') && task.account_names.length > 1) problems.push('account_names ["*"] stands alone');
  if (task.account_name === '*') problems.push('use account_names ["*"] for every account');

  problems.push(...scheduleRuleProblems(task, { checkSchedule }));
  const listen = task.execution_mode === 'listen';
  task.chats.forEach((chat, index) => problems.push(...chatProblems(chat, `chats.${index}`, listen)));
  return problems;
}

const STORED_FIELDS: ReadonlyArray<keyof SignTaskInput> = [
  'name',
  'account_name',
  'account_names',
  'sign_at',
  'random_seconds',
  'sign_interval',
  'execution_mode',
  'range_start',
  'range_end',
  'enabled',
  'retry_count',
  'notify_on_failure',
  'notify_on_success',
  'chats',
];

export type ParsedTask = { ok: true; task: SignTaskInput } | { ok: false; problems: string[] };

/**
 * Checks a task from anywhere (API body, import, a file on disk) with the same rules as the API:
 * the DTO's field rules, then taskRuleProblems. `strict` refuses unknown fields (the API);
 * otherwise they are dropped (imports from the panel users migrate from carry extra fields).
 * `checkSchedule: false` (task files already on disk) loads a schedule that fires too often or never
 * rather than dropping the task; new input (API, import) is always checked.
 */
export function parseTaskInput(plain: unknown, options: { strict: boolean; checkSchedule?: boolean }): ParsedTask {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return { ok: false, problems: ['a task must be a JSON object'] };
  const source = { ...(plain as Record<string, unknown>) };
  if (!options.strict) {
    for (const key of ['last_run', 'created_at', 'updated_at']) delete source[key];
    // The panel users migrate from writes null for absent optional fields.
    for (const [key, value] of Object.entries(source)) if (value === null) delete source[key];
  }
  const instance = plainToInstance(SignTaskInputDto, source);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: options.strict });
  if (errors.length) return { ok: false, problems: flattenValidationErrors(errors) };
  const task = normaliseTask(instance);
  const problems = taskRuleProblems(task, { checkSchedule: options.checkSchedule });
  return problems.length ? { ok: false, problems } : { ok: true, task };
}

/**
 * `null` for an optional field means "not set", at any depth, as in the exports of the panel users
 * migrate from (and its clients send). Required fields were checked before: a null there is a 400.
 */
function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) out[key] = withoutNullMembers(member);
  return out;
}

/** A plain copy with only the stored fields (class instances, undefined and null fields dropped). */
export function normaliseTask(input: SignTaskInput): SignTaskInput {
  const plain = withoutNullMembers(JSON.parse(JSON.stringify(input))) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of STORED_FIELDS) if (plain[field] !== undefined) out[field] = plain[field];
  return out as unknown as SignTaskInput;
}

/** How a task problem line reads, and the rule and sentence it stands for (the first that matches wins). */
const TASK_PROBLEM_RULES: ReadonlyArray<{ test: RegExp; rule: string; sentence: string }> = [
  { test: /is not a valid regular expression for RE2/, rule: 'pattern', sentence: 'This pattern cannot run here: look-arounds and back-references are not supported; simplify it.' },
  { test: /fires more often than once a minute/, rule: 'schedule_too_often', sentence: 'This schedule runs more than once a minute; give the seconds field a single value.' },
  { test: /never fires/, rule: 'schedule_never', sentence: 'This schedule never runs (no date matches it, such as 31 February); change the day or month.' },
  { test: /cron expression or HH:MM/, rule: 'schedule', sentence: 'Enter a time such as 08:00, or a cron expression with 5 or 6 fields.' },
  { test: /needs range_start and range_end|must be HH:MM\[:SS\]/, rule: 'time_of_day', sentence: 'Enter a time of day such as 08:30 (24-hour clock).' },
  { test: /must be HH:MM$/, rule: 'hour_minute', sentence: 'Enter a time of day such as 08:30 (24-hour clock).' },
  { test: /must differ from range_start/, rule: 'range_same', sentence: 'The end of the window must differ from its start.' },
  { test: /go together/, rule: 'together', sentence: 'Give both the start and the end, or neither.' },
  { test: /must be an http\(s\) URL/, rule: 'url', sentence: 'Enter a web address starting with http:// or https://.' },
  { test: /needs at least one keyword/, rule: 'keywords_required', sentence: 'Add at least one keyword.' },
  { test: /needs at least one action/, rule: 'follow_up_required', sentence: 'Add at least one follow-up action.' },
  { test: /is required for push_channel/, rule: 'required', sentence: 'Fill in this field for the chosen way of notifying.' },
  { test: /is required/, rule: 'required', sentence: 'Fill in this field.' },
  { test: /belongs|is not allowed here|is allowed only|hold only action 8|answer a hit message|apply only to/, rule: 'action_not_here', sentence: 'This action is not allowed here.' },
  { test: /account_names|account_name|^account "/, rule: 'accounts', sentence: 'Choose the accounts again: one or more valid account names, or every account.' },
  { test: /^name must be/, rule: 'name', sentence: 'Use a name of 1 to 64 characters, without control characters or spaces at either end.' },
];

/**
 * The field a task problem line concerns and the rule it breaks, for a form: `chats.0.actions.1.text
 * is required ...` -> field `chats.0.actions.1.text`, rule `required`. The path is the line's first
 * word (before a space or a colon); account problems go to `accounts`, the range to `range_start`.
 */
export function taskProblemFields(lines: readonly string[]): FieldProblem[] {
  return lines.map((line) => {
    const known = TASK_PROBLEM_RULES.find((candidate) => candidate.test.test(line));
    let field = /^([A-Za-z_][\w]*(?:\.[\w]+)*)(?=[\s:])/.exec(line)?.[1] ?? '';
    if (/^(account_names?|account|give|use)$/.test(field)) field = 'accounts';
    if (field === 'range') field = 'range_start';
    field ||= 'task';
    return { field, rule: known?.rule ?? 'invalid', message: known?.sentence ?? fieldRuleSentence('invalid') };
  });
}
