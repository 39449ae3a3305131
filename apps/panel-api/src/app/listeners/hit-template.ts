/** The variables a follow-up text, a custom URL or a push may use (panel-api-details.md, action 8). */
export interface HitVariables {
  keyword: string;
  message: string;
  text: string;
  sender: string;
  chat_id: string;
  chat_title: string;
  message_id: string;
  url: string;
  task_name: string;
  account_name: string;
}

export const HIT_VARIABLE_NAMES: ReadonlyArray<keyof HitVariables> = [
  'keyword',
  'message',
  'text',
  'sender',
  'chat_id',
  'chat_title',
  'message_id',
  'url',
  'task_name',
  'account_name',
];

const PLACEHOLDER = /\{([a-z_]+)\}/g;

function isVariableName(name: string): name is keyof HitVariables {
  return (HIT_VARIABLE_NAMES as readonly string[]).includes(name);
}

/** Replaces `{name}` for every known variable; unknown braces stay as they are (JSON in a text, say). */
export function renderTemplate(template: string, variables: HitVariables, encode: (value: string) => string = (value) => value): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (isVariableName(name) ? encode(variables[name]) : whole));
}

/** True when the text uses at least one known variable (a custom URL is then a GET template). */
export function usesTemplateVariables(template: string): boolean {
  for (const match of template.matchAll(PLACEHOLDER)) if (isVariableName(match[1])) return true;
  return false;
}

/** A link to the message: `t.me/<username>/<id>` for public chats, `t.me/c/<id>/<msg>` for channels and supergroups. */
export function messageUrl(chatId: string, messageId: number, chatUsername?: string): string {
  if (chatUsername) return `https://t.me/${chatUsername.replace(/^@/, '')}/${messageId}`;
  if (chatId.startsWith('-100')) return `https://t.me/c/${chatId.slice(4)}/${messageId}`;
  return '';
}

const DEEP_LINK = /(?:https?:\/\/)?(?:t\.me|telegram\.me|telegram\.dog)\/([A-Za-z][A-Za-z0-9_]{3,31})\?start=([A-Za-z0-9_-]{1,64})/gi;

export interface BotDeepLink {
  bot: string;
  start: string;
}

/** Bot deep links `t.me/<bot>?start=<arg>` in a text, in order, without repeats. */
export function extractBotDeepLinks(text: string): BotDeepLink[] {
  const out: BotDeepLink[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(DEEP_LINK)) {
    const key = `${match[1].toLowerCase()}?${match[2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ bot: match[1], start: match[2] });
  }
  return out;
}
