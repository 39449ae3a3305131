import { chatRef, isJsonObject, ItemReport, Json, wholeNumber } from './import-report';

/**
 * tg-signer monitors (`monitors` in the reference panel's export: `{ match_cfgs: [...] }`) become
 * listen tasks. Each match_cfg becomes one or more listen rules (action 8) in its chat:
 *
 * - `rule` exact|contains|regex with `rule_value` → match_mode and the one keyword; `all` (every text
 *   message) → match_mode regex with the keyword `[\s\S]+`;
 * - `from_user_ids` → sender_filter (`me` = the account itself), `always_ignore_me` → ignore_self,
 *   `ignore_case` → ignore_case;
 * - a reply (`default_send_text`, `send_text_search_regex`, `ai_reply` + `ai_prompt`) → push channel
 *   continue with one action 1 that computes the text the same way, in `forward_to_chat_id` (default:
 *   the chat of the message), deleted after `delete_after` seconds;
 * - `push_via_server_chan` + `server_chan_send_key` → a second rule with push channel server_chan;
 * - `external_forwards` of type http → a rule with push channel custom (POST of the hit as JSON).
 */

/** Matches every text message: tg-signer's rule `all`. */
export const EVERY_MESSAGE_PATTERN = '[\\s\\S]+';

const MATCH_RULES = ['exact', 'contains', 'regex', 'all'];

function senderFilterOf(value: unknown, at: string, report: ItemReport): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) {
    report.problem(`${at} must be a list`);
    return undefined;
  }
  const entries: string[] = [];
  for (const sender of value) {
    if (typeof sender === 'number' && Number.isInteger(sender)) entries.push(String(sender));
    else if (typeof sender === 'string' && sender.trim()) {
      const text = sender.trim();
      if (text === 'me' || text === 'self') entries.push('me');
      else if (/^-?\d+$/.test(text)) entries.push(text);
      else entries.push(text.startsWith('@') ? text : `@${text}`);
    } else report.problem(`${at}: ${JSON.stringify(sender)} is not a user id or username`);
  }
  if (entries.length === 0) return undefined;
  report.map(at, `sender_filter ${JSON.stringify(entries.join(','))}`);
  return entries.join(',');
}

/** The listen rules of one match_cfg (in order), or undefined when it cannot be read. */
function rulesOfMatchConfig(raw: unknown, at: string, report: ItemReport): { chat: number | string; rules: Json[] } | undefined {
  if (!isJsonObject(raw)) {
    report.problem(`${at} must be an object`);
    return undefined;
  }
  const chat = chatRef(raw['chat_id']);
  if (chat === undefined) {
    report.problem(`${at}.chat_id ${JSON.stringify(raw['chat_id'])} is not a chat id or username`);
    return undefined;
  }
  report.map(`${at}.chat_id`, `chats[].chat_id ${JSON.stringify(chat)}`);

  const rule = raw['rule'] ?? 'exact';
  if (raw['rule'] === undefined || raw['rule'] === null) report.fill(`${at}.rule`, 'exact', "tg-signer's default");
  if (typeof rule !== 'string' || !MATCH_RULES.includes(rule)) {
    report.problem(`${at}.rule must be one of ${MATCH_RULES.join(', ')}`);
    return undefined;
  }
  const base: Json = { action: 8 };
  if (rule === 'all') {
    base['match_mode'] = 'regex';
    base['keywords'] = [EVERY_MESSAGE_PATTERN];
    report.map(`${at}.rule "all"`, `match_mode regex, keywords ["${EVERY_MESSAGE_PATTERN}"] (every text message)`);
  } else {
    const value = raw['rule_value'];
    if (typeof value !== 'string' || value === '') {
      report.problem(`${at}.rule_value is required for rule ${rule}`);
      return undefined;
    }
    base['match_mode'] = rule;
    base['keywords'] = [value];
    report.map(`${at}.rule, rule_value`, `match_mode ${rule}, keywords [${JSON.stringify(value)}]`);
  }
  const ignoreCase = raw['ignore_case'] ?? true;
  base['ignore_case'] = ignoreCase !== false;
  if (raw['ignore_case'] === undefined || raw['ignore_case'] === null) report.fill(`${at}.ignore_case`, true, "tg-signer's default");
  else report.map(`${at}.ignore_case`);
  base['ignore_self'] = raw['always_ignore_me'] === true;
  if (raw['always_ignore_me'] === undefined || raw['always_ignore_me'] === null) report.fill(`${at}.always_ignore_me`, false, "tg-signer's default: the account's own messages are matched too");
  report.map(`${at}.always_ignore_me`, `ignore_self ${base['ignore_self']}`);
  const senders = senderFilterOf(raw['from_user_ids'], `${at}.from_user_ids`, report);
  if (senders) base['sender_filter'] = senders;

  const rules: Json[] = [];

  // The reply, computed as tg-signer's get_send_text does.
  const defaultText = typeof raw['default_send_text'] === 'string' && raw['default_send_text'] ? raw['default_send_text'] : undefined;
  const searchRegex = typeof raw['send_text_search_regex'] === 'string' && raw['send_text_search_regex'] ? raw['send_text_search_regex'] : undefined;
  const aiPrompt = typeof raw['ai_prompt'] === 'string' && raw['ai_prompt'] ? raw['ai_prompt'] : undefined;
  const aiReply = raw['ai_reply'] === true && aiPrompt !== undefined;
  if (raw['ai_reply'] === true && aiPrompt === undefined) report.drop(`${at}.ai_reply`, 'true without ai_prompt: tg-signer does not ask the model then, and neither does this panel');
  if (defaultText || searchRegex || aiReply) {
    const reply: Json = { action: 1 };
    if (defaultText) {
      reply['text'] = defaultText;
      report.map(`${at}.default_send_text`, 'continue_actions[0].text');
    }
    if (searchRegex) {
      reply['send_text_search_regex'] = searchRegex;
      report.map(`${at}.send_text_search_regex`, 'continue_actions[0].send_text_search_regex');
    }
    if (aiReply) {
      reply['ai_reply'] = true;
      reply['ai_prompt'] = aiPrompt;
      report.map(`${at}.ai_reply, ai_prompt`, 'continue_actions[0].ai_reply, ai_prompt');
    }
    const replyRule: Json = { ...base, push_channel: 'continue', continue_actions: [reply] };
    const target = raw['forward_to_chat_id'];
    if (target !== null && target !== undefined && target !== '') {
      const ref = chatRef(target);
      if (ref === undefined) report.problem(`${at}.forward_to_chat_id ${JSON.stringify(target)} is not a chat id or username`);
      else {
        replyRule['continue_chat_id'] = ref;
        report.map(`${at}.forward_to_chat_id`, `continue_chat_id ${JSON.stringify(ref)}`);
      }
    } else report.fill(`${at}.forward_to_chat_id`, 'the chat of the message', "tg-signer's default");
    const deleteAfter = raw['delete_after'];
    if (deleteAfter !== null && deleteAfter !== undefined) {
      const seconds = wholeNumber(deleteAfter);
      if (seconds === undefined || seconds < 0) report.problem(`${at}.delete_after must be whole seconds`);
      else {
        replyRule['continue_delete_after'] = seconds;
        report.map(`${at}.delete_after`, 'continue_delete_after');
      }
    }
    rules.push(replyRule);
  } else {
    if (raw['forward_to_chat_id'] !== null && raw['forward_to_chat_id'] !== undefined) report.drop(`${at}.forward_to_chat_id`, 'only where a reply goes; this monitor sends no reply');
    if (raw['delete_after'] !== null && raw['delete_after'] !== undefined) report.drop(`${at}.delete_after`, 'only for a reply; this monitor sends no reply');
  }

  if (raw['push_via_server_chan'] === true) {
    const key = typeof raw['server_chan_send_key'] === 'string' && raw['server_chan_send_key'] ? raw['server_chan_send_key'] : undefined;
    const pushRule: Json = { ...base, push_channel: 'server_chan' };
    if (key) {
      pushRule['server_chan_key'] = key;
      report.map(`${at}.push_via_server_chan, server_chan_send_key`, 'a listen rule with push_channel server_chan');
    } else {
      report.warn(`${at}: push_via_server_chan without server_chan_send_key (tg-signer reads SERVER_CHAN_SEND_KEY from its environment): the rule is imported without a key; set server_chan_key, pushes fail until then`);
    }
    rules.push(pushRule);
  } else if (raw['server_chan_send_key']) {
    report.drop(`${at}.server_chan_send_key`, 'push_via_server_chan is off, so the key is not used');
  }

  const forwards = raw['external_forwards'];
  if (Array.isArray(forwards)) {
    forwards.forEach((forward, index) => {
      const where = `${at}.external_forwards[${index}]`;
      if (!isJsonObject(forward)) {
        report.problem(`${where} must be an object`);
        return;
      }
      const type = forward['type'] ?? (forward['url'] !== undefined ? 'http' : 'udp');
      if (type === 'http' && typeof forward['url'] === 'string') {
        rules.push({ ...base, push_channel: 'custom', custom_url: forward['url'] });
        report.map(where, `a listen rule with push_channel custom, custom_url ${JSON.stringify(forward['url'])} (the hit is POSTed as JSON, not tg-signer's message dump)`);
        if (isJsonObject(forward['headers']) && Object.keys(forward['headers']).length) {
          report.drop(`${where}.headers`, `custom pushes send no extra headers here (${Object.keys(forward['headers']).join(', ')} not sent); put a token in the URL instead`);
        }
      } else if (type === 'udp') {
        report.drop(where, `UDP forwarding (${String(forward['host'])}:${String(forward['port'])}) has no equivalent here; use a custom (HTTP) push`);
      } else {
        report.problem(`${where} is neither an http callback with a url nor a udp forward`);
      }
    });
  } else if (forwards !== null && forwards !== undefined) {
    report.problem(`${at}.external_forwards must be a list`);
  }

  if (rules.length === 0) {
    rules.push({ ...base, push_channel: 'telegram' });
    report.warn(`${at} sends no reply and no push in tg-signer (it only logs a match): here each hit is recorded and sent to the panel's bot (push_channel telegram); change the push channel if you do not want that`);
  }
  for (const field of Object.keys(raw)) {
    if (
      ![
        'chat_id',
        'rule',
        'rule_value',
        'ignore_case',
        'always_ignore_me',
        'from_user_ids',
        'default_send_text',
        'send_text_search_regex',
        'ai_reply',
        'ai_prompt',
        'forward_to_chat_id',
        'delete_after',
        'push_via_server_chan',
        'server_chan_send_key',
        'external_forwards',
      ].includes(field) &&
      raw[field] !== null
    ) {
      report.drop(`${at}.${field}`, `unknown field; ignored (${JSON.stringify(raw[field])})`);
    }
  }
  return { chat, rules };
}

/** One monitor as a listen task document (without accounts: a monitor names none). */
export function readMonitor(key: string, raw: unknown, name: string): { task: Json; report: ItemReport } {
  const report = new ItemReport();
  const task: Json = { name, execution_mode: 'listen', enabled: true, sign_interval: 1 };
  if (name !== key) report.fill('name', name, `a sign task of the document is called ${JSON.stringify(key)}`);
  else report.map('(key)', 'name');
  report.fill('execution_mode', 'listen', 'a monitor listens');
  report.fill('enabled', true, 'a monitor in the reference panel runs when started');
  report.fill('sign_interval', 1, "the reference panel's default for tasks");
  report.fill('chats[].action_interval', 1, "the reference panel's default for tasks");
  if (!isJsonObject(raw) || !Array.isArray(raw['match_cfgs'])) {
    report.problem('a monitor must be an object with a match_cfgs list');
    return { task, report };
  }
  if (raw['match_cfgs'].length === 0) report.problem('match_cfgs is empty: nothing to listen for');
  const chats: Array<{ chat_id: number | string; action_interval: number; actions: Json[] }> = [];
  raw['match_cfgs'].forEach((cfg, index) => {
    const read = rulesOfMatchConfig(cfg, `match_cfgs[${index}]`, report);
    if (!read) return;
    let chat = chats.find((entry) => String(entry.chat_id) === String(read.chat));
    if (!chat) {
      chat = { chat_id: read.chat, action_interval: 1, actions: [] };
      chats.push(chat);
    }
    chat.actions.push(...read.rules);
  });
  task['chats'] = chats;
  for (const field of Object.keys(raw)) if (field !== 'match_cfgs') report.drop(field, `unknown field of a monitor; ignored (${JSON.stringify(raw[field])})`);
  return { task, report };
}
