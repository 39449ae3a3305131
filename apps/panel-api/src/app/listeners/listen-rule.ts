import type { TelegramIncomingMessage } from '../telegram/telegram-gateway';
import type { ChatId, MatchMode, PushChannel, TaskAction } from '../sign-tasks/sign-task.types';
import { AhoCorasick } from './aho-corasick';
import { ActiveHours, activeHoursOf, isWithinActiveHours } from './active-hours';
import { LinearRegex, LinearRegexMatch } from '../common/linear-regex';

/** Where a rule came from: one action 8 of one chat of one listen task, for one account. */
export interface ListenRuleSource {
  accountName: string;
  taskName: string;
  /** Position of this action 8 among the task's listen rules (over all its chats). */
  ruleIndex: number;
  chatId: ChatId;
  chatName?: string;
  /** Only messages of this forum topic. */
  messageThreadId?: number;
  /** The action 8 itself, as stored. */
  action: TaskAction;
}

export interface RuleMatch {
  /** The keyword as configured (contains, exact), the matched text or first group (regex), or all keywords joined (all). */
  keyword: string;
}

/** Per-message values shared by every rule of an account, computed once per message. */
export class MessageView {
  private lowered?: string;
  private trimmed?: string;
  private trimmedLowered?: string;

  constructor(readonly message: TelegramIncomingMessage) {}

  get text(): string {
    return this.message.text;
  }

  get lower(): string {
    this.lowered ??= this.message.text.toLowerCase();
    return this.lowered;
  }

  get trimmedText(): string {
    this.trimmed ??= this.message.text.trim();
    return this.trimmed;
  }

  get trimmedLower(): string {
    this.trimmedLowered ??= this.trimmedText.toLowerCase();
    return this.trimmedLowered;
  }
}

type TextMatcher = (view: MessageView) => RuleMatch | undefined;

/** A sender filter entry: a numeric user id, an @username, or a display name (case-insensitive). */
interface SenderFilter {
  /** `me` / `self`: the account's own messages (tg-signer's from_user_ids "me"). */
  self: boolean;
  ids: Set<string>;
  usernames: Set<string>;
  names: Set<string>;
}

function parseSenderFilter(text: string | undefined): SenderFilter | undefined {
  const entries = (text ?? '')
    .split(/[,\n]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const filter: SenderFilter = { self: false, ids: new Set(), usernames: new Set(), names: new Set() };
  for (const entry of entries) {
    if (entry === 'me' || entry === 'self') filter.self = true;
    else if (/^-?\d+$/.test(entry)) filter.ids.add(entry);
    else if (entry.startsWith('@')) filter.usernames.add(entry.slice(1).toLowerCase());
    else {
      // A bare word may be a username written without @ or a display name.
      filter.usernames.add(entry.toLowerCase());
      filter.names.add(entry.toLowerCase());
    }
  }
  return filter;
}

function senderAccepted(filter: SenderFilter, message: TelegramIncomingMessage): boolean {
  if (filter.self && message.out) return true;
  if (message.senderId && filter.ids.has(message.senderId)) return true;
  if (message.senderUsername && filter.usernames.has(message.senderUsername.toLowerCase())) return true;
  if (message.senderName && filter.names.has(message.senderName.trim().toLowerCase())) return true;
  return false;
}

export function normalizeKeywords(keywords: readonly string[] | undefined, mode: MatchMode): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of keywords ?? []) {
    // Regular expressions keep their spaces; plain keywords do not.
    const keyword = mode === 'regex' ? raw : raw.trim();
    if (!keyword || seen.has(keyword)) continue;
    seen.add(keyword);
    out.push(keyword);
  }
  return out;
}

function regexValue(match: LinearRegexMatch): string {
  for (let i = 1; i < match.length; i++) {
    const group = match[i]?.trim();
    if (group) return group;
  }
  return match[0].trim() || match[0];
}

function compileTextMatcher(mode: MatchMode, keywords: string[], ignoreCase: boolean): { matcher: TextMatcher; problems: string[] } {
  const problems: string[] = [];
  if (keywords.length === 0) return { matcher: () => undefined, problems: ['the rule has no keywords'] };
  switch (mode) {
    case 'exact': {
      const lookup = new Map<string, string>();
      for (const keyword of keywords) {
        const key = ignoreCase ? keyword.toLowerCase() : keyword;
        if (!lookup.has(key)) lookup.set(key, keyword);
      }
      return {
        matcher: (view) => {
          const keyword = lookup.get(ignoreCase ? view.trimmedLower : view.trimmedText);
          return keyword === undefined ? undefined : { keyword };
        },
        problems,
      };
    }
    case 'regex': {
      // RE2: linear time in the message, whatever the owner's pattern (no catastrophic backtracking on chat text).
      const expressions: LinearRegex[] = [];
      for (const keyword of keywords) {
        try {
          expressions.push(LinearRegex.compile(keyword, { ignoreCase }));
        } catch (error) {
          // Saving refuses such a pattern; one that still gets here (a file written before, or by hand) is skipped and
          // reported in the listener's problems (GET /api/ops/runtime-status), never thrown at match time.
          problems.push(`regular expression ${JSON.stringify(keyword)} is not used: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return {
        matcher: (view) => {
          for (const expression of expressions) {
            const match = expression.exec(view.text);
            if (match) return { keyword: regexValue(match) };
          }
          return undefined;
        },
        problems,
      };
    }
    case 'all': {
      const automaton = new AhoCorasick(ignoreCase ? keywords.map((k) => k.toLowerCase()) : keywords);
      const distinct = new Set(ignoreCase ? keywords.map((k) => k.toLowerCase()) : keywords).size;
      return {
        matcher: (view) => {
          const found = automaton.distinctPatterns(ignoreCase ? view.lower : view.text);
          return found.length === distinct ? { keyword: keywords.join(', ') } : undefined;
        },
        problems,
      };
    }
    case 'contains':
    default: {
      const automaton = new AhoCorasick(ignoreCase ? keywords.map((k) => k.toLowerCase()) : keywords);
      return {
        matcher: (view) => {
          const first = automaton.findFirst(ignoreCase ? view.lower : view.text);
          return first ? { keyword: keywords[first.pattern] } : undefined;
        },
        problems,
      };
    }
  }
}

/**
 * One action 8 compiled for matching: keywords into an Aho-Corasick automaton (contains, all), a
 * hash lookup (exact) or RegExp objects (regex), the sender filter into sets and the active hours
 * into minutes. Built when the tasks change, never per message.
 */
export class CompiledListenRule {
  readonly accountName: string;
  readonly taskName: string;
  readonly ruleIndex: number;
  readonly chatId: string;
  readonly chatName?: string;
  readonly messageThreadId?: number;
  readonly action: TaskAction;
  readonly matchMode: MatchMode;
  readonly pushChannel: PushChannel;
  readonly ignoreSelf: boolean;
  readonly keywordCount: number;
  /** Why parts of the rule cannot work (shown in runtime status); the rest of the rule still runs. */
  readonly problems: string[];
  private readonly textMatcher: TextMatcher;
  private readonly senderFilter?: SenderFilter;
  private readonly excludedSenders: ReadonlySet<string>;
  private readonly activeHours?: ActiveHours;
  private resolvedChatId?: string;

  constructor(source: ListenRuleSource) {
    const action = source.action;
    this.accountName = source.accountName;
    this.taskName = source.taskName;
    this.ruleIndex = source.ruleIndex;
    this.chatId = String(source.chatId).trim();
    this.chatName = source.chatName;
    this.messageThreadId = source.messageThreadId;
    this.action = action;
    this.matchMode = action.match_mode ?? 'contains';
    this.pushChannel = action.push_channel ?? 'telegram';
    this.ignoreSelf = action.ignore_self ?? true;
    const keywords = normalizeKeywords(action.keywords, this.matchMode);
    this.keywordCount = keywords.length;
    const compiled = compileTextMatcher(this.matchMode, keywords, action.ignore_case ?? true);
    this.textMatcher = compiled.matcher;
    this.problems = compiled.problems;
    this.senderFilter = parseSenderFilter(action.sender_filter);
    this.excludedSenders = new Set((action.exclude_user_ids ?? []).map((id) => String(id).trim()));
    this.activeHours = activeHoursOf(action.active_time_start, action.active_time_end);
    if ((action.active_time_start || action.active_time_end) && !this.activeHours) {
      this.problems.push('active_time_start/active_time_end must both be HH:MM; the rule is active all day');
    }
  }

  /** The numeric chat id an `@username` chat turned out to have. */
  resolveChatId(chatId: string): void {
    this.resolvedChatId = chatId;
  }

  /** True when the message is in this rule's chat (and topic). */
  appliesToChat(message: TelegramIncomingMessage): boolean {
    if (message.chatId !== (this.resolvedChatId ?? this.chatId)) return false;
    return this.messageThreadId === undefined || message.threadId === this.messageThreadId;
  }

  /** The match of a message of this rule's chat, or undefined; `timeZone` decides the active hours. */
  match(view: MessageView, timeZone: string): RuleMatch | undefined {
    const message = view.message;
    if (this.ignoreSelf && message.out) return undefined;
    if (this.senderFilter && !senderAccepted(this.senderFilter, message)) return undefined;
    if (message.senderId !== undefined && this.excludedSenders.has(message.senderId)) return undefined;
    if (!isWithinActiveHours(this.activeHours, new Date(message.date * 1000), timeZone)) return undefined;
    if (!message.text) return undefined;
    return this.textMatcher(view);
  }
}
