import { EventLoopBudget } from '../common/request-limits';
import { SettingsService } from '../settings/settings.service';
import { SignTask, SignTaskInput } from '../sign-tasks/sign-task.types';
import { cronOfSignAt, parseTaskInput, scheduleProblem } from '../sign-tasks/task-validation';
import { isSecretPlaceholder } from './config-sections';
import { isJsonObject, ItemReport, Json, UnmappedField } from './import-report';
import { readMonitor } from './monitor-import';
import { TASK_SECRET_FIELDS } from './reference-export';
import { planSettingsImport, SettingsImportPlan } from './settings-transfer';
import { readSignEntry, ReadSignEntry } from './sign-import';

export const CONFIG_EXPORT_FORMAT = 'tg-signpulse-config-export';
/** Version 1: tasks, monitors and settings; version 2: the reference panel's settings-only export. */
export const CONFIG_EXPORT_VERSIONS = [1, 2];

export type ItemSection = 'signs' | 'monitors' | 'settings';
export type ItemAction = 'create' | 'overwrite' | 'update' | 'unchanged' | 'skip' | 'refuse';

/** One item of an import as the preview shows it; `key` is what the import's `selected` names. */
export interface PlannedItem {
  key: string;
  section: ItemSection;
  /** The task name here (signs, monitors); null for settings. */
  name: string | null;
  /** Keys of the document this item is read from (per-account copies of one task are merged). */
  source_keys: string[];
  /** The accounts the task will run for (`*` = every account); empty for settings. */
  accounts: string[];
  action: ItemAction;
  reason: string | null;
  mapped_fields: string[];
  defaults_applied: string[];
  unmapped_fields: UnmappedField[];
  warnings: string[];
  problems: string[];
}

export interface ImportPlanContext {
  overwrite: boolean;
  /** The account for items that name none (monitors, tasks without an account). */
  defaultAccount?: string;
  accounts: string[];
  storedTask: (name: string) => SignTask | undefined;
  settings: SettingsService;
}

/** A task item ready to be written. */
export interface TaskWrite {
  key: string;
  name: string;
  task: SignTaskInput;
  replaces: boolean;
}

export interface ImportPlan {
  /** Problems of the document as a whole (unreadable sections, wrong format): nothing may be imported. */
  documentProblems: string[];
  items: PlannedItem[];
  tasks: Map<string, TaskWrite>;
  settings?: SettingsImportPlan;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Entries of a section given as the reference panel's keyed object or as this panel's earlier list. */
function entriesOf(section: string, value: unknown, problems: string[]): Array<[string, unknown]> {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    return value.map((entry, index) => [isJsonObject(entry) && typeof entry['name'] === 'string' && entry['name'] ? entry['name'] : `${section}[${index}]`, entry]);
  }
  if (isJsonObject(value)) return Object.entries(value);
  problems.push(`${section} must be an object keyed by name (or a list), not ${typeof value}`);
  return [];
}

/** Placeholders and left-out secrets take the stored task's value at the same place; else a warning. */
function resolveTaskSecrets(task: Json, stored: SignTask | undefined, report: ItemReport): Json {
  const resolved = structuredClone(task);
  const storedActions = new Map<string, Json>();
  const walk = (actions: unknown, path: string, visit: (action: Json, path: string) => void) => {
    if (!Array.isArray(actions)) return;
    actions.forEach((action, index) => {
      if (!isJsonObject(action)) return;
      visit(action, `${path}[${index}]`);
      walk(action['continue_actions'], `${path}[${index}].continue_actions`, visit);
    });
  };
  const forEachAction = (document: Json, visit: (action: Json, path: string) => void) => {
    if (!Array.isArray(document['chats'])) return;
    document['chats'].forEach((chat, index) => {
      if (isJsonObject(chat)) walk(chat['actions'], `chats[${index}].actions`, visit);
    });
  };
  if (stored) forEachAction(stored as unknown as Json, (action, path) => storedActions.set(path, action));
  const needs: Record<string, (typeof TASK_SECRET_FIELDS)[number]> = { bark: 'bark_url', custom: 'custom_url', server_chan: 'server_chan_key' };
  forEachAction(resolved, (action, path) => {
    for (const field of TASK_SECRET_FIELDS) {
      const given = action[field];
      const needed = action['action'] === 8 && needs[String(action['push_channel'] ?? 'telegram')] === field;
      if (given !== undefined && !isSecretPlaceholder(given) && given !== '') continue;
      if (given === undefined && !needed) continue;
      const kept = storedActions.get(path)?.[field];
      if (typeof kept === 'string' && kept) {
        action[field] = kept;
        report.map(`${path}.${field}`, `${field} (${given === undefined ? 'left out' : 'masked'}: the stored value is kept)`);
      } else {
        delete action[field];
        report.warn(`${path}.${field} is ${given === undefined ? 'not in the document (exports leave secrets out)' : 'masked'} and no stored value exists: set it after the import; pushes of this rule fail until then`);
      }
    }
  });
  return resolved;
}

/**
 * A regular expression written for Python (the reference panel) in this panel's dialect: Python's
 * `\w` / `\W` match letters and digits of every script, JavaScript's only ASCII, so they become
 * `[\p{L}\p{N}_]` / `[^\p{L}\p{N}_]` (inside a class: `\p{L}\p{N}_`). Undefined when nothing changes.
 */
export function pythonRegexToJs(expression: string): string | undefined {
  let out = '';
  let inClass = false;
  let changed = false;
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i];
    if (char === '\\' && i + 1 < expression.length) {
      const next = expression[i + 1];
      if (next === 'w' || next === 'W') {
        changed = true;
        if (inClass) out += next === 'w' ? '\\p{L}\\p{N}_' : '\\W';
        else out += next === 'w' ? '[\\p{L}\\p{N}_]' : '[^\\p{L}\\p{N}_]';
      } else out += char + next;
      i += 1;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    out += char;
  }
  return changed ? out : undefined;
}

/** Regular expressions of listen rules and replies, read as Python reads them (see pythonRegexToJs). */
function translateRegexes(task: Json, report: ItemReport): void {
  const translate = (holder: Json, field: string, index: number | undefined, at: string) => {
    const value = index === undefined ? holder[field] : (holder[field] as unknown[])[index];
    if (typeof value !== 'string') return;
    const translated = pythonRegexToJs(value);
    if (translated === undefined) {
      if (/\\[bB]/.test(value)) report.warn(`${at} ${JSON.stringify(value)} uses \\b: a word boundary counts only ASCII letters here, letters of every script in Python (the reference panel)`);
      return;
    }
    if (index === undefined) holder[field] = translated;
    else (holder[field] as unknown[])[index] = translated;
    report.map(at, `${JSON.stringify(translated)} (\\w matches letters of every script, as in Python)`);
  };
  const chats = Array.isArray(task['chats']) ? task['chats'] : [];
  chats.forEach((chat, chatIndex) => {
    if (!isJsonObject(chat) || !Array.isArray(chat['actions'])) return;
    chat['actions'].forEach((action, actionIndex) => {
      if (!isJsonObject(action)) return;
      const at = `chats[${chatIndex}].actions[${actionIndex}]`;
      if (action['match_mode'] === 'regex' && Array.isArray(action['keywords'])) action['keywords'].forEach((_, index) => translate(action, 'keywords', index, `${at}.keywords[${index}]`));
      if (Array.isArray(action['continue_actions'])) {
        action['continue_actions'].forEach((followUp, index) => isJsonObject(followUp) && translate(followUp, 'send_text_search_regex', undefined, `${at}.continue_actions[${index}].send_text_search_regex`));
      }
    });
  });
}

interface Candidate {
  key: string;
  section: 'signs' | 'monitors';
  name: string;
  sourceKeys: string[];
  accounts: string[];
  task: Json;
  report: ItemReport;
}

/** Per-account copies of one task (same name, same content) become one task for all their accounts. */
function mergeSignEntries(entries: ReadSignEntry[]): Candidate[] {
  const byName = new Map<string, ReadSignEntry[]>();
  for (const entry of entries) byName.set(entry.name, [...(byName.get(entry.name) ?? []), entry]);
  const out: Candidate[] = [];
  for (const [name, group] of byName) {
    const contents = new Set(group.map((entry) => stableJson(entry.task)));
    if (group.length === 1 || contents.size === 1) {
      const report = new ItemReport();
      report.absorb(group[0].report);
      for (const other of group.slice(1)) report.problems.push(...other.report.problems.filter((problem) => !report.problems.includes(problem)));
      const accounts = [...new Set(group.flatMap((entry) => entry.accounts))];
      if (group.length > 1) report.map(group.map((entry) => entry.key).join(', '), `one task for accounts ${accounts.join(', ')} (per-account copies merged)`);
      out.push({ key: `signs:${name}`, section: 'signs', name, sourceKeys: group.map((entry) => entry.key), accounts, task: group[0].task, report });
      continue;
    }
    // Copies that differ (other chats per account, say) stay separate tasks, each for its own accounts.
    for (const entry of group) {
      const label = entry.accounts.length ? entry.accounts.join(', ') : entry.key;
      const splitName = `${name} (${label})`;
      const report = new ItemReport();
      report.absorb(entry.report);
      report.warn(`the document has several differing entries named ${JSON.stringify(name)}: this one is imported as ${JSON.stringify(splitName)}`);
      out.push({ key: `signs:${entry.key}`, section: 'signs', name: splitName, sourceKeys: [entry.key], accounts: entry.accounts, task: { ...entry.task, name: splitName }, report });
    }
  }
  return out;
}

function resolveAccounts(candidate: Candidate, context: ImportPlanContext): string[] | undefined {
  const named = candidate.accounts;
  if (named.includes('*')) {
    if (named.length > 1) candidate.report.map(`account_names ${JSON.stringify(named)}`, 'account_names ["*"] (every account)');
    return ['*'];
  }
  if (named.length) return named;
  if (context.defaultAccount) {
    candidate.report.fill('account_name', context.defaultAccount, 'names no account: default_account of the import');
    return [context.defaultAccount];
  }
  if (context.accounts.includes('my_account')) {
    candidate.report.fill('account_name', 'my_account', 'names no account: my_account exists (the reference panel infers it)');
    return ['my_account'];
  }
  if (context.accounts.length === 1) {
    candidate.report.fill('account_name', context.accounts[0], 'names no account: the only account of this panel (as the reference panel infers)');
    return [context.accounts[0]];
  }
  candidate.report.problem(
    context.accounts.length === 0
      ? 'names no account and this panel has no account yet: log the account in first, or give default_account'
      : `names no account and this panel has ${context.accounts.length} accounts: give default_account to choose one`,
  );
  return undefined;
}

/**
 * Reads a whole configuration document into items, each checked completely (shape, task rules,
 * secrets, accounts) and marked create / overwrite / skip / refuse; writes nothing.
 */
export async function planImport(document: Json, context: ImportPlanContext): Promise<ImportPlan> {
  const documentProblems: string[] = [];
  const meta = document['_meta'];
  if (meta !== undefined) {
    if (!isJsonObject(meta)) documentProblems.push('_meta must be an object');
    else {
      const { format, version } = meta;
      if (format !== undefined && format !== CONFIG_EXPORT_FORMAT) documentProblems.push(`_meta.format must be ${CONFIG_EXPORT_FORMAT}, not ${JSON.stringify(format)}`);
      if (version !== undefined && !CONFIG_EXPORT_VERSIONS.includes(version as number)) {
        documentProblems.push(`_meta.version ${JSON.stringify(version)} is not supported (this server reads versions ${CONFIG_EXPORT_VERSIONS.join(' and ')})`);
      }
    }
  }
  for (const key of Object.keys(document)) {
    if (!['_meta', 'signs', 'monitors', 'settings'].includes(key)) documentProblems.push(`${key} is not a section of the configuration JSON (expected signs, monitors, settings)`);
  }
  // Reading and checking a thousand tasks takes a while: let health checks and other requests through meanwhile.
  const budget = new EventLoopBudget();
  const signEntries: ReadSignEntry[] = [];
  for (const [key, value] of entriesOf('signs', document['signs'], documentProblems)) {
    await budget.yieldIfDue();
    signEntries.push(readSignEntry(key, value));
  }
  const candidates = mergeSignEntries(signEntries);
  const signNames = new Set(candidates.map((candidate) => candidate.name));
  for (const [key, value] of entriesOf('monitors', document['monitors'], documentProblems)) {
    await budget.yieldIfDue();
    const name = signNames.has(key) ? `${key} (monitor)` : key;
    const read = readMonitor(key, value, name);
    candidates.push({ key: `monitors:${key}`, section: 'monitors', name, sourceKeys: [key], accounts: [], task: read.task, report: read.report });
  }

  const schedules = new Map<string, string | undefined>();
  const scheduleOf = (signAt: string | undefined): string | undefined => {
    const expression = signAt ? cronOfSignAt(signAt) : undefined;
    if (expression === undefined) return undefined;
    if (!schedules.has(expression)) schedules.set(expression, scheduleProblem(expression));
    return schedules.get(expression);
  };
  const items: PlannedItem[] = [];
  const tasks = new Map<string, TaskWrite>();
  const seenNames = new Map<string, string>();
  for (const candidate of candidates) {
    await budget.yieldIfDue();
    const { report } = candidate;
    const accounts = resolveAccounts(candidate, context);
    const stored = context.storedTask(candidate.name);
    const resolved = resolveTaskSecrets({ ...candidate.task, name: candidate.name }, stored, report);
    if (accounts) {
      if (accounts.length === 1 && accounts[0] !== '*') resolved['account_name'] = accounts[0];
      else resolved['account_names'] = accounts;
    }
    translateRegexes(resolved, report);
    const clash = seenNames.get(candidate.name);
    if (clash) report.problem(`the name ${JSON.stringify(candidate.name)} is also used by ${clash}`);
    seenNames.set(candidate.name, candidate.key);
    if (!report.problems.length && accounts) {
      // The schedule is checked once per distinct sign_at (see scheduleOf): hundreds of tasks share a few.
      const parsed = parseTaskInput(resolved, { strict: false, checkSchedule: false });
      const schedule = parsed.ok ? scheduleOf(parsed.task.sign_at) : undefined;
      if (!parsed.ok) parsed.problems.forEach((problem) => report.problem(problem));
      else if (schedule) report.problem(`sign_at ${schedule}`);
      else tasks.set(candidate.key, { key: candidate.key, name: candidate.name, task: parsed.task, replaces: stored !== undefined });
    }
    let action: ItemAction;
    let reason: string | null = null;
    if (report.problems.length) {
      action = 'refuse';
      reason = report.problems.join('; ');
      tasks.delete(candidate.key);
    } else if (stored && !context.overwrite) {
      action = 'skip';
      reason = 'a task of this name exists; import with overwrite=true to replace it';
      tasks.delete(candidate.key);
    } else action = stored ? 'overwrite' : 'create';
    items.push({
      key: candidate.key,
      section: candidate.section,
      name: candidate.name,
      source_keys: candidate.sourceKeys,
      accounts: accounts ?? [],
      action,
      reason,
      mapped_fields: report.mapped,
      defaults_applied: report.defaults,
      unmapped_fields: report.unmapped,
      warnings: report.warnings,
      problems: report.problems,
    });
  }

  let settings: SettingsImportPlan | undefined;
  if (document['settings'] !== undefined) {
    settings = planSettingsImport(document['settings'], context.settings);
    const report = settings.report;
    let action: ItemAction = settings.changed.length ? 'update' : 'unchanged';
    let reason: string | null = settings.changed.length
      ? 'settings are applied whether or not overwrite is set, as in the reference panel; leave "settings" out of selected to keep yours'
      : null;
    if (report.problems.length) {
      action = 'refuse';
      reason = report.problems.join('; ');
    }
    items.push({
      key: 'settings',
      section: 'settings',
      name: null,
      source_keys: ['settings'],
      accounts: [],
      action,
      reason,
      mapped_fields: report.mapped,
      defaults_applied: report.defaults,
      unmapped_fields: report.unmapped,
      warnings: report.warnings,
      problems: report.problems,
    });
  }
  return { documentProblems, items, tasks, settings };
}
