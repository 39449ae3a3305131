/** Bot API limit for one message (panel-api splits at this length). */
export const TELEGRAM_MESSAGE_LIMIT = 4096;
/** repo-monitor cuts its notifications at 4000 characters (repo-monitor-details.md). */
export const MONITOR_TELEGRAM_TEXT_LIMIT = 4000;

/** Escapes text for Telegram's HTML parse mode (`&`, `<`, `>` and `"`). */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

type HtmlToken =
  | { kind: 'open'; name: string; raw: string }
  | { kind: 'close'; name: string; raw: string }
  | { kind: 'text'; raw: string };

interface OpenTag {
  name: string;
  raw: string;
}

const MARKUP = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>|&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{0,31});/g;

/** Tags, entities and single code points: the units a cut may never go through. */
function tokenize(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let last = 0;
  const pushText = (text: string): void => {
    for (const char of text) tokens.push({ kind: 'text', raw: char });
  };
  for (const match of html.matchAll(MARKUP)) {
    const index = match.index ?? 0;
    pushText(html.slice(last, index));
    const raw = match[0];
    if (raw.startsWith('&')) tokens.push({ kind: 'text', raw });
    else {
      const name = (match[2] as string).toLowerCase();
      tokens.push(match[1] === '/' ? { kind: 'close', name, raw } : { kind: 'open', name, raw });
    }
    last = index + raw.length;
  }
  pushText(html.slice(last));
  return tokens;
}

function applyToken(stack: readonly OpenTag[], token: HtmlToken): OpenTag[] {
  if (token.kind === 'open') return [...stack, { name: token.name, raw: token.raw }];
  if (token.kind === 'close') {
    const at = stack.map((tag) => tag.name).lastIndexOf(token.name);
    return at === -1 ? [...stack] : stack.slice(0, at);
  }
  return stack as OpenTag[];
}

function closingTags(stack: readonly OpenTag[]): string {
  return stack
    .slice()
    .reverse()
    .map((tag) => `</${tag.name}>`)
    .join('');
}

function closingLength(stack: readonly OpenTag[]): number {
  return stack.reduce((sum, tag) => sum + tag.name.length + 3, 0);
}

interface Piece {
  /** Markup of this piece without the closing tags of still-open elements. */
  body: string;
  /** Elements open at the end of the piece (to close now and reopen in the next piece). */
  stack: OpenTag[];
  next: number;
}

/**
 * Takes as many tokens from `start` as fit into `budget` characters, counting the reopened tags
 * in front and the closing tags needed at the end. Prefers to end after a newline, then after a
 * space, when that keeps at least half of the piece.
 */
function takePiece(tokens: readonly HtmlToken[], start: number, openAtStart: readonly OpenTag[], budget: number): Piece {
  const prefix = openAtStart.map((tag) => tag.raw).join('');
  const parts: string[] = [prefix];
  let length = prefix.length;
  let stack: OpenTag[] = [...openAtStart];
  let index = start;
  let lastNewline: { index: number; parts: number; length: number; stack: OpenTag[] } | undefined;
  let lastSpace: typeof lastNewline;
  while (index < tokens.length) {
    const token = tokens[index] as HtmlToken;
    const nextStack = applyToken(stack, token);
    if (length + token.raw.length + closingLength(nextStack) > budget && index > start) break;
    parts.push(token.raw);
    length += token.raw.length;
    stack = nextStack;
    index++;
    if (token.kind === 'text' && (token.raw === '\n' || token.raw === ' ')) {
      const mark = { index, parts: parts.length, length, stack };
      if (token.raw === '\n') lastNewline = mark;
      else lastSpace = mark;
    }
  }
  if (index < tokens.length) {
    const half = prefix.length + (length - prefix.length) / 2;
    const mark = lastNewline && lastNewline.length >= half ? lastNewline : lastSpace && lastSpace.length >= half ? lastSpace : undefined;
    if (mark) {
      index = mark.index;
      parts.length = mark.parts;
      stack = mark.stack;
    }
    // An opening tag right at the end would leave an empty element: move it to the next piece.
    while (index - 1 > start && (tokens[index - 1] as HtmlToken).kind === 'open') {
      index--;
      parts.pop();
      stack = stack.slice(0, -1);
    }
  }
  return { body: parts.join(''), stack, next: index };
}

/**
 * Splits Telegram HTML into messages of at most `limit` characters without cutting through a tag
 * or an entity: elements open at a cut are closed at the end of one part and reopened at the start
 * of the next. Length is counted on the markup, which is never shorter than the text Telegram counts.
 */
export function splitTelegramHtml(html: string, limit: number = TELEGRAM_MESSAGE_LIMIT): string[] {
  if (html.length <= limit) return [html];
  const tokens = tokenize(html);
  const messages: string[] = [];
  let stack: OpenTag[] = [];
  let index = 0;
  while (index < tokens.length) {
    const piece = takePiece(tokens, index, stack, limit);
    messages.push(piece.body + closingTags(piece.stack));
    stack = piece.stack;
    index = piece.next;
  }
  return messages;
}

/**
 * Cuts Telegram HTML to at most `limit` characters, ending with `ellipsis` and closing every element
 * still open, never inside a tag or an entity.
 */
export function truncateTelegramHtml(html: string, limit: number = MONITOR_TELEGRAM_TEXT_LIMIT, ellipsis = '…'): string {
  if (html.length <= limit) return html;
  const piece = takePiece(tokenize(html), 0, [], Math.max(1, limit - ellipsis.length));
  return piece.body.replace(/\s+$/, '') + ellipsis + closingTags(piece.stack);
}
