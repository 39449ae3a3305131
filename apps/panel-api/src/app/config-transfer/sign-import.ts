import { chatRef, isJsonObject, ItemReport, Json, wholeNumber } from './import-report';

/**
 * Reading one `signs` entry as the reference panel (TG-SignPulse) writes it, or as this panel
 * exported it earlier, into this panel's task document. Every field taken, defaulted or dropped is
 * written to the item's report.
 */

/** One `signs` entry read: the task without its accounts, and the accounts it names. */
export interface ReadSignEntry {
  /** Key of the entry in the document (`task@account`, `task`, or `signs[3]` in a list). */
  key: string;
  name: string;
  /** Accounts named by account_name / account_names (`*` kept); empty when none. */
  accounts: string[];
  /** The task document without account_name / account_names. */
  task: Json;
  report: ItemReport;
}

/** Fields of the reference panel that are its own bookkeeping; they have no meaning here. */
const BOOKKEEPING_FIELDS: Record<string, string> = {
  _version: 'format version of the reference panel; the document is read by its shape',
  task_group_id: 'links per-account copies in the reference panel; copies of one task are merged into one task here',
  last_run: 'run state is not imported',
  last_run_account_name: 'run state is not imported',
  active_run: 'run state is not imported',
  created_at: 'set by this panel',
  updated_at: 'set by this panel',
};

const TASK_FIELDS_TAKEN = ['sign_at', 'random_seconds', 'sign_interval', 'execution_mode', 'range_start', 'range_end', 'enabled', 'retry_count', 'notify_on_failure', 'notify_on_success', 'chats'];

/** Dice emoji tg-signer sends with `as_dice`. */
const DICE_DEFAULT = '🎲';

/**
 * The reference panel migrates older task files when it loads them (tg-signer's SignConfig V1 → V2
 * → V3): V1 `{chat_id, sign_text, sign_at, random_seconds}` becomes one chat; each V2 chat's
 * `sign_text` becomes action 1 (action 2 with `as_dice`), `text_of_btn_to_click` action 3,
 * `choose_option_by_image` action 4 and `has_calculation_problem` action 5.
 */
export function migrateLegacySignConfig(entry: Json, report: ItemReport): Json {
  let config = entry;
  if (config['chats'] === undefined && config['chat_id'] !== undefined && config['sign_text'] !== undefined) {
    report.map('chat_id, sign_text (V1 task)', 'chats[0] (migrated as the reference panel does)');
    const { chat_id: chatId, sign_text: signText, ...rest } = config;
    config = { ...rest, chats: [{ chat_id: chatId, sign_text: signText, delete_after: null }] };
  }
  const chats = config['chats'];
  if (!Array.isArray(chats) || !chats.some((chat) => isJsonObject(chat) && chat['actions'] === undefined && ('sign_text' in chat || 'text_of_btn_to_click' in chat))) return config;
  report.map('chats[].sign_text, as_dice, text_of_btn_to_click, choose_option_by_image, has_calculation_problem (V2 task)', 'chats[].actions (migrated as the reference panel does)');
  return {
    ...config,
    chats: chats.map((chat) => {
      if (!isJsonObject(chat) || chat['actions'] !== undefined) return chat;
      const { sign_text: signText, as_dice: asDice, text_of_btn_to_click: button, choose_option_by_image: image, has_calculation_problem: calculation, ...rest } = chat;
      const actions: Json[] = [];
      if (typeof signText === 'string' && signText) actions.push(asDice === true ? { action: 2, dice: signText || DICE_DEFAULT } : { action: 1, text: signText });
      if (typeof button === 'string' && button) actions.push({ action: 3, text: button });
      if (image === true) actions.push({ action: 4 });
      if (calculation === true) actions.push({ action: 5 });
      return { ...rest, actions };
    }),
  };
}

/** Reads one action (and its continue_actions) into this panel's form. */
function readAction(raw: unknown, path: string, report: ItemReport, chatSenderFilter: string | undefined): Json | undefined {
  if (!isJsonObject(raw)) {
    report.problem(`${path} must be an object`);
    return undefined;
  }
  const out: Json = {};
  const number = wholeNumber(raw['action']);
  if (number === undefined) {
    report.problem(`${path}.action must be an action number`);
    return undefined;
  }
  if (number === 99) {
    report.problem(`${path}: action 99 (custom plugin ${JSON.stringify(raw['plugin_name'] ?? '')}) has no equivalent here`);
    return undefined;
  }
  out['action'] = number;
  report.map(`${path}.action`);
  for (const [field, value] of Object.entries(raw)) {
    const at = `${path}.${field}`;
    if (field === 'action' || value === null || value === undefined) continue;
    switch (field) {
      case 'delay':
        if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) {
          out['delay'] = typeof value === 'string' ? value.trim() : value;
          report.map(at);
        }
        break;
      case 'text':
      case 'dice':
      case 'ai_prompt':
      case 'match_mode':
      case 'sender_filter':
      case 'active_time_start':
      case 'active_time_end':
      case 'push_channel':
      case 'bark_url':
      case 'custom_url':
      case 'server_chan_key':
      case 'bot_username':
      case 'command_prefix':
      case 'start_param':
      case 'send_text_search_regex':
        if (typeof value === 'string' && value === '' && !['text', 'ai_prompt'].includes(field)) {
          report.map(at, `${field} (empty, left out)`);
          break;
        }
        out[field] = value;
        report.map(at);
        break;
      case 'server_chan_send_key':
        out['server_chan_key'] = value;
        report.map(at, 'server_chan_key');
        break;
      case 'keywords':
        if (typeof value === 'string') {
          out['keywords'] = value
            .split(/\r?\n/)
            .map((keyword) => keyword.trim())
            .filter(Boolean);
          report.map(at, 'keywords (one per line)');
        } else {
          out['keywords'] = value;
          report.map(at);
        }
        break;
      case 'ignore_case':
      case 'ignore_self':
      case 'ai_reply':
        out[field] = value;
        report.map(at);
        break;
      case 'forward_chat_id':
      case 'continue_chat_id': {
        const ref = chatRef(value);
        if (ref === undefined) {
          if (value === '') report.map(at, `${field} (empty, left out)`);
          else report.problem(`${at} ${JSON.stringify(value)} is not a chat id or @username`);
          break;
        }
        out[field] = ref;
        report.map(at, ref === value ? undefined : `${field} ${JSON.stringify(ref)}`);
        break;
      }
      case 'forward_message_thread_id':
      case 'continue_message_thread_id':
      case 'max_batch':
      case 'continue_delete_after': {
        if (value === '') break;
        const whole = wholeNumber(value);
        if (whole === undefined) report.problem(`${at} must be a whole number, not ${JSON.stringify(value)}`);
        else {
          out[field] = whole;
          report.map(at, typeof value === 'string' ? `${field} ${whole}` : undefined);
        }
        break;
      }
      case 'continue_actions':
        if (!Array.isArray(value)) report.problem(`${at} must be a list`);
        else {
          const followUps = value.map((item, index) => readAction(item, `${at}[${index}]`, report, undefined));
          if (followUps.every((item) => item !== undefined)) out['continue_actions'] = followUps;
        }
        break;
      case 'continue_action_interval':
        if (Number(value) !== 1) report.drop(at, `no per-rule follow-up interval here; follow-ups run one after another without a pause (${JSON.stringify(value)} s in the document)`);
        else report.drop(at, 'the default 1 s; follow-ups run one after another here');
        break;
      case 'parse_deep_links':
      case 'multi_match':
        if (value === false) report.drop(at, `${field}: false has no equivalent; deep links in the message are always followed`);
        else report.drop(at, `${field}: true is how action 9 works here`);
        break;
      case 'continue_on_error':
      case 'stop_flow_on_terminal':
      case 'skip_if_matched':
      case 'timeout':
      case 'mode':
      case 'params':
      case 'plugin_name':
        if (value === false || value === '' || (isJsonObject(value) && Object.keys(value).length === 0)) report.drop(at, 'unset in the document; no equivalent here');
        else report.drop(at, `no equivalent here; ignored (${JSON.stringify(value)})`);
        break;
      default:
        report.drop(at, `unknown field; ignored (${JSON.stringify(value)})`);
    }
  }
  if (number === 8) {
    if (out['sender_filter'] === undefined && chatSenderFilter !== undefined) {
      out['sender_filter'] = chatSenderFilter;
      report.map(`${path} (chat sender_filter)`, `${path}.sender_filter`);
    }
    if (out['push_channel'] === 'continue' && out['continue_chat_id'] === undefined) report.fill(`${path}.continue_chat_id`, 'the chat of the hit', 'push channel continue without continue_chat_id runs in the source chat');
  }
  return out;
}

function readChat(raw: unknown, path: string, report: ItemReport): Json | undefined {
  if (!isJsonObject(raw)) {
    report.problem(`${path} must be an object`);
    return undefined;
  }
  const out: Json = {};
  const ref = chatRef(raw['chat_id']);
  if (ref === undefined) {
    report.problem(`${path}.chat_id ${JSON.stringify(raw['chat_id'])} is not a chat id or @username`);
    return undefined;
  }
  out['chat_id'] = ref;
  report.map(`${path}.chat_id`, ref === raw['chat_id'] ? undefined : `chat_id ${JSON.stringify(ref)}`);
  const senderFilter = typeof raw['sender_filter'] === 'string' && raw['sender_filter'].trim() ? raw['sender_filter'].trim() : undefined;
  for (const [field, value] of Object.entries(raw)) {
    const at = `${path}.${field}`;
    if (field === 'chat_id' || field === 'actions') continue;
    if (value === null || value === undefined) continue;
    switch (field) {
      case 'name':
        if (typeof value === 'string' && value) {
          out['name'] = value;
          report.map(at);
        }
        break;
      case 'message_thread_id':
      case 'delete_after': {
        const whole = wholeNumber(value);
        if (whole === undefined) report.problem(`${at} must be a whole number, not ${JSON.stringify(value)}`);
        else if (field === 'delete_after' && whole <= 0) report.drop(at, `${whole}: messages are deleted at once by the reference panel; here the smallest delay is 1 s`);
        else {
          out[field] = whole;
          report.map(at);
        }
        break;
      }
      case 'action_interval': {
        const seconds = typeof value === 'number' ? value : Number(value);
        if (!Number.isFinite(seconds) || seconds < 0) report.problem(`${at} must be seconds, not ${JSON.stringify(value)}`);
        else {
          out['action_interval'] = Math.ceil(seconds);
          report.map(at, Number.isInteger(seconds) ? undefined : `action_interval ${Math.ceil(seconds)} (whole seconds)`);
        }
        break;
      }
      case 'sender_filter':
        if (senderFilter !== undefined) report.map(at, `${path}.actions[].sender_filter (each listen rule of the chat)`);
        break;
      case 'source_account':
        report.drop(at, 'which account the reference panel copied the chat from; the task lists its accounts itself');
        break;
      case 'steps':
      case 'initial_step_id':
      case 'next_task_on_success':
      case 'next_task_delay_seconds':
      case 'execution_engine':
        report.drop(at, `no equivalent here; ignored (${JSON.stringify(value)})`);
        break;
      default:
        report.drop(at, `unknown field; ignored (${JSON.stringify(value)})`);
    }
  }
  if (out['action_interval'] === undefined) {
    out['action_interval'] = 1;
    report.fill(`${path}.action_interval`, 1, "the reference panel's default");
  }
  const rawActions = raw['actions'];
  if (!Array.isArray(rawActions)) {
    report.problem(`${path}.actions must be a list`);
    return undefined;
  }
  const actions = rawActions.map((action, index) => readAction(action, `${path}.actions[${index}]`, report, senderFilter));
  if (actions.some((action) => action === undefined)) return undefined;
  out['actions'] = actions;
  return out;
}

/** Reads one `signs` entry (keyed `task@account`, `task`, or a list element). */
export function readSignEntry(key: string, raw: unknown): ReadSignEntry {
  const report = new ItemReport();
  if (!isJsonObject(raw)) {
    report.problem('a task must be a JSON object');
    return { key, name: key.split('@')[0], accounts: [], task: {}, report };
  }
  const entry = migrateLegacySignConfig(raw, report);
  let name: string;
  if (typeof entry['name'] === 'string' && entry['name'].trim()) {
    name = entry['name'];
    report.map('name');
  } else {
    name = key.includes('@') ? key.slice(0, key.indexOf('@')) : key;
    report.fill('name', name, 'the entry has no name: the part of its key before "@"');
  }

  const accounts: string[] = [];
  const addAccount = (value: unknown) => {
    if (typeof value === 'string' && value.trim() && !accounts.includes(value.trim())) accounts.push(value.trim());
  };
  if (Array.isArray(entry['account_names'])) {
    entry['account_names'].forEach(addAccount);
    report.map('account_names');
  }
  if (typeof entry['account_name'] === 'string' && entry['account_name'].trim()) {
    addAccount(entry['account_name']);
    report.map('account_name');
  }
  if (accounts.length === 0 && key.includes('@') && key.slice(key.indexOf('@') + 1)) {
    addAccount(key.slice(key.indexOf('@') + 1));
    report.fill('account_name', key.slice(key.indexOf('@') + 1), 'the entry names no account: the part of its key after "@"');
  }

  const task: Json = { name };
  for (const field of TASK_FIELDS_TAKEN) {
    const value = entry[field];
    if (value === null || value === undefined) continue;
    switch (field) {
      case 'range_start':
      case 'range_end':
      case 'sign_at':
        if (value === '') report.map(field, `${field} (empty, left out)`);
        else {
          task[field] = value;
          report.map(field);
        }
        break;
      case 'random_seconds':
      case 'sign_interval':
      case 'retry_count': {
        const whole = wholeNumber(value);
        if (whole === undefined) report.problem(`${field} must be a whole number, not ${JSON.stringify(value)}`);
        else {
          task[field] = whole;
          report.map(field, typeof value === 'string' ? `${field} ${whole}` : undefined);
        }
        break;
      }
      case 'chats':
        if (!Array.isArray(value)) report.problem('chats must be a list');
        else {
          const chats = value.map((chat, index) => readChat(chat, `chats[${index}]`, report));
          if (chats.every((chat) => chat !== undefined)) task['chats'] = chats;
        }
        break;
      default:
        task[field] = value;
        report.map(field);
    }
  }
  if (task['execution_mode'] === undefined) {
    task['execution_mode'] = 'fixed';
    report.fill('execution_mode', 'fixed', 'missing, as in the reference panel');
  }
  if (task['notify_on_success'] === undefined) {
    task['notify_on_success'] = true;
    report.fill('notify_on_success', true, "the reference panel's default");
  }
  if (task['notify_on_failure'] === undefined) {
    task['notify_on_failure'] = true;
    report.fill('notify_on_failure', true, "the reference panel's default");
  }
  if (task['enabled'] === undefined) {
    task['enabled'] = true;
    report.fill('enabled', true, "the reference panel's default");
  }
  if (task['retry_count'] === undefined) {
    task['retry_count'] = 3;
    report.fill('retry_count', 3, "the reference panel's default");
  }
  if (task['sign_interval'] === undefined && entry['chats'] !== undefined) {
    task['sign_interval'] = 1;
    report.fill('sign_interval', 1, "the reference panel's default: 1 s between chats");
  }

  const handled = new Set(['name', 'account_name', 'account_names', ...TASK_FIELDS_TAKEN]);
  for (const [field, value] of Object.entries(entry)) {
    if (handled.has(field)) continue;
    if (field in BOOKKEEPING_FIELDS) report.drop(field, BOOKKEEPING_FIELDS[field]);
    else if (value !== null && value !== undefined) report.drop(field, `no equivalent here; ignored (${JSON.stringify(value)})`);
  }
  return { key, name, accounts, task, report };
}
