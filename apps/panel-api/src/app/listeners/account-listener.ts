import type { Logger } from '@nestjs/common';
import { isTelegramError } from '../telegram/telegram-error';
import type { MessageSubscription, TelegramGateway, TelegramIncomingMessage, TelegramMessage, TelegramSession } from '../telegram/telegram-gateway';
import { CompiledListenRule, MessageView } from './listen-rule';

export type ListenerState = 'starting' | 'listening' | 'error' | 'needs_relogin' | 'stopped';

/** What an account listener needs from the service around it. */
export interface AccountListenerHost {
  readonly gateway: TelegramGateway;
  readonly logger: Logger;
  timeZone(): string;
  watermark(accountName: string, chatId: string): Promise<number | undefined>;
  advanceWatermark(accountName: string, chatId: string, messageId: number): Promise<void>;
  /** Records the hit and starts its push; resolves once the hit is stored. */
  onHit(rule: CompiledListenRule, message: TelegramIncomingMessage, keyword: string): Promise<void>;
  onSessionInvalid(accountName: string, message: string): void;
}

/** Messages older than the watermark that a restart fetches at most per chat. */
const CATCH_UP_LIMIT = 100;
const CALL_TIMEOUT_MS = 30_000;

/**
 * One account's listener: a subscription to its new messages, the compiled rules of its listen
 * tasks, and a queue that handles messages one at a time in arrival order. On start it catches up
 * on each monitored chat from the stored watermark; a message at or below the watermark is never
 * handled again, so a reconnect that re-delivers updates does not replay hits.
 */
export class AccountListener {
  state: ListenerState = 'starting';
  lastError?: string;
  startedAt?: Date;
  lastMessageAt?: Date;
  hits = 0;
  private subscription?: MessageSubscription;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private heldBack?: TelegramIncomingMessage[] = [];
  /** Rule chat refs (`@name` or ids) resolved to the numeric chat ids messages carry. */
  private readonly chatIds = new Map<string, string>();

  constructor(
    readonly accountName: string,
    readonly rules: CompiledListenRule[],
    private readonly session: TelegramSession,
    private readonly host: AccountListenerHost,
  ) {}

  /** The chats this listener watches (as configured). */
  chats(): string[] {
    return [...new Set(this.rules.map((rule) => rule.chatId))];
  }

  async start(): Promise<void> {
    try {
      this.subscription = await this.host.gateway.subscribe(this.session, (message) => this.enqueue(message), { timeoutMs: CALL_TIMEOUT_MS });
      if (this.stopped) {
        await this.subscription.unsubscribe();
        return;
      }
      for (const chatRef of this.chats()) await this.catchUp(chatRef);
      const held = this.heldBack ?? [];
      this.heldBack = undefined;
      for (const message of held.sort((a, b) => a.id - b.id)) this.schedule(message);
      if (this.stopped) return;
      this.state = 'listening';
      this.startedAt = new Date();
      this.lastError = undefined;
    } catch (error) {
      await this.subscription?.unsubscribe().catch(() => undefined);
      this.subscription = undefined;
      const message = error instanceof Error ? error.message : String(error);
      this.lastError = message;
      if (isTelegramError(error) && error.kind === 'session_invalid') {
        this.state = 'needs_relogin';
        this.host.onSessionInvalid(this.accountName, message);
      } else {
        this.state = 'error';
      }
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.state = 'stopped';
    await this.subscription?.unsubscribe().catch(() => undefined);
    this.subscription = undefined;
    await this.queue;
  }

  /** Waits until every message received so far is handled (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(message: TelegramIncomingMessage): void {
    if (this.stopped || message.event !== 'new') return;
    // Live messages wait while the catch-up runs, so the watermark only ever moves forward in order.
    if (this.heldBack) this.heldBack.push(message);
    else this.schedule(message);
  }

  private schedule(message: TelegramIncomingMessage): void {
    this.queue = this.queue.then(() => this.handle(message)).catch((error: unknown) => {
      this.host.logger.error({ err: error, account: this.accountName }, 'A keyword listener failed to handle a message');
    });
  }

  /**
   * A chat's messages newer than the watermark, oldest first; without a watermark (first start)
   * the watermark is set to the newest message so that history is never treated as new.
   */
  private async catchUp(chatRef: string): Promise<void> {
    const options = { timeoutMs: CALL_TIMEOUT_MS };
    let chatId = /^-?\d+$/.test(chatRef) ? chatRef : undefined;
    let newest: TelegramMessage[] | undefined;
    if (chatId === undefined) {
      newest = await this.host.gateway.getMessages(this.session, chatRef, { ...options, limit: 1 });
      chatId = newest[0]?.chatId;
      if (chatId === undefined) return; // an @username chat without messages: resolved when it has one
    }
    this.resolveChat(chatRef, chatId);
    const watermark = await this.host.watermark(this.accountName, chatId);
    if (watermark === undefined) {
      newest ??= await this.host.gateway.getMessages(this.session, chatRef, { ...options, limit: 1 });
      await this.host.advanceWatermark(this.accountName, chatId, newest[0]?.id ?? 0);
      return;
    }
    const missed = await this.host.gateway.getMessages(this.session, chatRef, { ...options, limit: CATCH_UP_LIMIT, minId: watermark });
    const title = this.rules.find((rule) => rule.chatId === chatRef)?.chatName;
    for (const message of [...missed].sort((a, b) => a.id - b.id)) this.schedule(incomingOf(message, title));
    await this.queue;
  }

  private resolveChat(chatRef: string, chatId: string): void {
    this.chatIds.set(chatRef, chatId);
    for (const rule of this.rules) if (rule.chatId === chatRef) rule.resolveChatId(chatId);
  }

  private async handle(message: TelegramIncomingMessage): Promise<void> {
    if (this.stopped) return;
    const rules = this.rules.filter((rule) => rule.appliesToChat(message));
    if (rules.length === 0) return;
    const watermark = await this.host.watermark(this.accountName, message.chatId);
    if (watermark !== undefined && message.id <= watermark) return;
    this.lastMessageAt = new Date();
    const view = new MessageView(message);
    const timeZone = this.host.timeZone();
    for (const rule of rules) {
      const match = rule.match(view, timeZone);
      if (!match) continue;
      await this.host.onHit(rule, message, match.keyword);
      this.hits += 1;
    }
    await this.host.advanceWatermark(this.accountName, message.chatId, message.id);
  }
}

function incomingOf(message: TelegramMessage, chatTitle: string | undefined): TelegramIncomingMessage {
  return { ...message, chatTitle, chatType: message.chatId.startsWith('-') ? 'group' : 'user', event: 'new' };
}
