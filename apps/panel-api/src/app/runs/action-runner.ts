import { Inject, Injectable } from '@nestjs/common';
import { englishText, readText } from '@shared/panel-texts';
import { randomInt } from 'node:crypto';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { ChatId, TASK_LIMITS, TaskAction } from '../sign-tasks/sign-task.types';
import { isTelegramError } from '../telegram/telegram-error';
import { CallOptions, TelegramButton, TelegramGateway, TelegramMessage, TelegramSession } from '../telegram/telegram-gateway';
import { AI_CLIENT, AiClient, AiQuestion } from './ai-client';
import type { FailureCategory } from '../common/run-outcomes';
import { failureCategoryOf, RunInterrupted, StepFailure } from './failure-category';
import { RUN_TIMINGS, RunTimings } from './run-timings';
import { LinearRegex } from '../common/linear-regex';
import { AccountNotFound, NeedsRelogin } from '../common/panel-error';
import { ChatVerdictRules, clipMatchedText, RUN_VERDICTS, RunVerdict, VERDICT_LIMITS, VerdictMatcher } from '../common/verdict';

/** Parameters of a coded flow log line (what the web app puts into its own sentence). */
export type FlowLogParams = Record<string, string | number>;

export interface FlowLogEntry {
  at: string;
  /** `chat 0 action 1` style label of the step, or null for run-level lines. */
  step: string | null;
  level: 'info' | 'warn' | 'error';
  /** The English text (kept for programs, logs and older clients). */
  message: string;
  /**
   * A line the runner writes itself (not an error's text): its stable code (FLOW_LOG_CODES) and
   * parameters, so the web app can say it in the person's language. Absent on older stored lines.
   */
  code?: string;
  params?: FlowLogParams;
}

/** Every code a runner-written flow log line carries (the web app has a sentence for each). */
export const FLOW_LOG_CODES = [
  'wait_before_action',
  'sent_text',
  'sent_dice',
  'using_previous_reply',
  'nothing_to_send',
  'bots_capped',
  'sent_to_bot',
  'pressed_keyboard',
  'clicked',
  'clicked_answered',
  'reply',
  'no_reply',
  'model_answered',
  'waiting_lock',
  'verdict',
  'bot_failed_retry',
  'step_retry',
  'deletion_scheduled',
  'run_ended_verdict',
  'run_succeeded',
  'run_failed',
  'run_interrupted',
  'run_error',
] as const;
export type FlowLogCode = (typeof FLOW_LOG_CODES)[number];

/**
 * An error's text as flow log parameters: `error` (the English text) and, when it is a sentence of
 * the catalogue (@shared/panel-texts runMessage), `error_code` and its parameters as `error.<name>`,
 * so the web app says the error in the reader's language.
 */
export function errorParams(error: string): FlowLogParams {
  const coded = readText('runMessage', error);
  if (!coded) return { error };
  return { error, error_code: coded.code, ...Object.fromEntries(Object.entries(coded.params).map(([name, value]) => [`error.${name}`, value])) };
}

/** A runner-written line: code, parameters and the English text. */
export function coded(code: FlowLogCode, params: FlowLogParams, message: string): { code: FlowLogCode; params: FlowLogParams; message: string } {
  return { code, params, message };
}

/** Where actions are performed: a chat (numeric id or `@username`), optionally a forum topic. */
export interface ActionTarget {
  chat_id: ChatId;
  message_thread_id?: number;
  /** Seconds between two actions in this chat. */
  action_interval?: number;
}

export interface ActionContext {
  session: TelegramSession;
  target: ActionTarget;
  signal: AbortSignal;
  step: string;
  log: (entry: Omit<FlowLogEntry, 'at' | 'step'> & { step?: string | null }) => void;
  /** `{keyword}`, `{message}`, … replaced in texts (listen follow-ups). */
  variables?: Readonly<Record<string, string>>;
  /** Told about every message the account sent in this step (for the chat's `delete_after`). */
  onSent?: (chat: ChatId, message: TelegramMessage) => void;
  /** Told where the bot's answer to this step will be: messages after `afterId`, or edits since `sinceSeconds`. */
  onMark?: (mark: AnswerMark) => void;
  /** Told about the bot's reply to this step (or null when none came in time). */
  onReply?: (reply: TelegramMessage | null) => void;
  /** The bot's reply to the chat's previous action, for buttons pressed in reply-to mode (`from_reply`). */
  previousReply?: TelegramMessage | null;
  /** A write that would wait longer than this for the account's safety budget is refused (listener replies). */
  budgetMaxWaitMs?: number;
}

/** Where the answer to an action is: a new message after `afterId` or an edit since `sinceSeconds`. */
export interface AnswerMark {
  afterId: number;
  /** The message the action sent (a reply to it counts in a group). */
  ownMessageId?: number;
  /** Unix seconds when the action was made. */
  sinceSeconds: number;
  /** The message whose button the action pressed: the bot may answer by editing it. */
  pressedMessageId?: number;
}

export interface VerdictResult {
  verdict: RunVerdict;
  /** The answer that decided it (or the last unmatched answer), null when none came. */
  text: string | null;
  /** How it was decided, for the flow log. */
  reason: string;
  /** The same as a code and its parameters (the web app's sentence). */
  reasonCode: 'pattern_matched' | 'model_classified' | 'no_pattern_matched' | 'no_answer';
  reasonParams: FlowLogParams;
}

export interface RunActionsOptions {
  signal?: AbortSignal;
  /** Values for the placeholders `{keyword}` `{message}` `{text}` `{sender}` `{chat_id}` `{chat_title}` `{message_id}` `{url}` `{task_name}` `{account_name}`. */
  variables?: Readonly<Record<string, string>>;
  /** Receives every flow-log line as it happens. */
  onLog?: (entry: FlowLogEntry) => void;
  /** Told about every message the account sent (a listen rule's `continue_delete_after`). */
  onSent?: (chat: ChatId, message: TelegramMessage) => void;
  /** A write that would wait longer than this for the account's safety budget is refused (listener replies). */
  budgetMaxWaitMs?: number;
}

export interface RunActionsResult {
  success: boolean;
  /** Index of the failed action (or actions.length when all ran). */
  completed: number;
  failure_category: FailureCategory;
  error: string | null;
  flow_log: FlowLogEntry[];
}

const DEEP_LINK_PATTERN = /(?:https?:\/\/)?(?:t|telegram)\.me\/([A-Za-z][A-Za-z0-9_]{3,31})\?start=([A-Za-z0-9_-]{1,64})/i;

/** Sleeps, or rejects with the run's interruption as soon as `signal` aborts. */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(interruptionOf(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(interruptionOf(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What an aborted run signal means: the RunInterrupted it was aborted with, or a cancel. */
export function interruptionOf(signal: AbortSignal): RunInterrupted {
  return signal.reason instanceof RunInterrupted ? signal.reason : new RunInterrupted('cancelled');
}

/** Seconds of an action delay: a number, or a random value within `"a-b"`. */
export function delaySeconds(delay: number | string | undefined): number {
  if (delay === undefined) return 0;
  if (typeof delay === 'number') return delay;
  const [low, high] = delay.split('-').map((part) => Number(part.trim()));
  if (high === undefined || Number.isNaN(high)) return Number.isNaN(low) ? 0 : low;
  return low + Math.random() * (high - low);
}

export function fillTemplate(text: string, variables: Readonly<Record<string, string>> | undefined): string {
  if (!variables) return text;
  return text.replace(/\{(keyword|message|text|sender|chat_id|chat_title|message_id|url|task_name|account_name)\}/g, (whole, key: string) => variables[key] ?? whole);
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function buttonMatching(buttons: TelegramButton[][], answer: string): TelegramButton | undefined {
  const wanted = normalise(answer);
  const all = buttons.flat();
  return all.find((b) => normalise(b.text) === wanted) ?? all.find((b) => normalise(b.text).includes(wanted) && wanted.length > 0) ?? all.find((b) => wanted.includes(normalise(b.text)) && b.text.trim().length > 0);
}

/**
 * Performs task actions 1-7 and 9 over the TelegramGateway and the AI port, writing what happens
 * (what was sent, the bot's reply, the model's answer) to the flow log.
 *
 * Sign runs use `runAction` step by step (so a retry resumes at the failed step); keyword listeners
 * call `runActions` for `continue` follow-ups. Neither takes the per-account run lock.
 */
@Injectable()
export class ActionRunner {
  constructor(
    private readonly sessions: AccountSessionsService,
    @Inject(AI_CLIENT) private readonly ai: AiClient,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
  ) {}

  private get gateway(): TelegramGateway {
    return this.sessions.gateway;
  }

  /**
   * Runs `actions` in `target` as `accountName`, in order, stopping at the first failure (no retry).
   * Never throws for a failed action: the result says which one failed and why. A session Telegram
   * rejects flags the account `needs_relogin`.
   */
  async runActions(accountName: string, target: ActionTarget, actions: readonly TaskAction[], options: RunActionsOptions = {}): Promise<RunActionsResult> {
    const flowLog: FlowLogEntry[] = [];
    const log = (entry: Omit<FlowLogEntry, 'at' | 'step'> & { step?: string | null }, step: string | null): void => {
      const line: FlowLogEntry = { at: new Date().toISOString(), step: entry.step === undefined ? step : entry.step, level: entry.level, message: entry.message };
      if (entry.code) Object.assign(line, { code: entry.code, params: entry.params ?? {} });
      flowLog.push(line);
      options.onLog?.(line);
    };
    const signal = options.signal ?? new AbortController().signal;
    let completed = 0;
    try {
      const session = this.sessionOf(accountName);
      for (const [index, action] of actions.entries()) {
        const step = `action ${index + 1}`;
        if (index > 0 && target.action_interval) await waitFor(target.action_interval * 1000, signal);
        await this.runAction(action, { session, target, signal, step, variables: options.variables, log: (entry) => log(entry, step), onSent: options.onSent, budgetMaxWaitMs: options.budgetMaxWaitMs });
        completed = index + 1;
      }
      return { success: true, completed, failure_category: 'none', error: null, flow_log: flowLog };
    } catch (error) {
      const category = failureCategoryOf(error);
      const message = error instanceof Error ? error.message : String(error);
      log({ level: 'error', message }, `action ${completed + 1}`);
      if (category === 'session_invalid') await this.sessions.markSessionInvalid(accountName, message);
      return { success: false, completed, failure_category: category, error: message, flow_log: flowLog };
    }
  }

  /** The session of an account, or a StepFailure (session_invalid / strong_failure) when it has none usable. */
  sessionOf(accountName: string): TelegramSession {
    try {
      return this.sessions.sessionFor(accountName);
    } catch (error) {
      if (error instanceof NeedsRelogin) throw new StepFailure('session_invalid', error.message);
      if (error instanceof AccountNotFound) throw new StepFailure('strong_failure', englishText('runMessage', 'account_missing', { account: accountName }));
      throw error;
    }
  }

  /** Flags the account needs_relogin after Telegram rejected its session during a run. */
  markSessionInvalid(accountName: string, message: string): Promise<void> {
    return this.sessions.markSessionInvalid(accountName, message);
  }

  /** One step: its delay, then the action. Throws StepFailure, TelegramError, AiError or RunInterrupted. */
  async runAction(action: TaskAction, context: ActionContext): Promise<void> {
    const seconds = delaySeconds(action.delay);
    if (seconds > 0) {
      context.log({ level: 'info', ...coded('wait_before_action', { seconds: Number(seconds.toFixed(1)) }, `waiting ${seconds.toFixed(1)} s before the action`) });
      await waitFor(seconds * 1000, context.signal);
    }
    switch (action.action) {
      case 1:
        return this.sendFollowUpOrText(action, context);
      case 2:
        return this.sendDice(action.dice ?? '🎲', context);
      case 3:
        return this.clickButtonByText(fillTemplate(action.text ?? '', context.variables), context, action.from_reply === true);
      case 4:
        return this.aiChooseOption(action, context);
      case 5:
        return this.aiAnswerCalculation(action, context);
      case 6:
        return this.aiReadImage(action, context);
      case 7:
        return this.aiCalculateAndClick(action, context);
      case 9:
        return this.followDeepLink(action, context);
      default:
        throw new StepFailure('strong_failure', englishText('runMessage', 'action_not_in_sign_run', { action: action.action }));
    }
  }

  // ----- actions ----------------------------------------------------------------------------

  private async sendText(text: string, context: ActionContext): Promise<void> {
    const sinceSeconds = Math.floor(Date.now() / 1000);
    const sent = await this.call(context, (options) => this.gateway.sendMessage(context.session, context.target.chat_id, text, { ...options, threadId: context.target.message_thread_id }));
    context.onMark?.({ afterId: sent.id, ownMessageId: sent.id, sinceSeconds });
    context.onSent?.(context.target.chat_id, sent);
    context.log({ level: 'info', ...coded('sent_text', { text }, `sent: ${text}`) });
    await this.recordReply(sent.id, context);
  }

  private async sendDice(emoji: string, context: ActionContext): Promise<void> {
    const sinceSeconds = Math.floor(Date.now() / 1000);
    const sent = await this.call(context, (options) => this.gateway.sendDice(context.session, context.target.chat_id, emoji, { ...options, threadId: context.target.message_thread_id }));
    context.onMark?.({ afterId: sent.id, ownMessageId: sent.id, sinceSeconds });
    context.onSent?.(context.target.chat_id, sent);
    context.log({
      level: 'info',
      ...coded('sent_dice', sent.diceValue !== undefined ? { emoji, value: sent.diceValue } : { emoji }, `sent dice ${emoji}${sent.diceValue !== undefined ? ` (rolled ${sent.diceValue})` : ''}`),
    });
    await this.recordReply(sent.id, context);
  }

  private async clickButtonByText(text: string, context: ActionContext, fromReply: boolean): Promise<void> {
    const message = fromReply ? await this.replyWithButtons(context) : (await this.recentIncoming(context)).find((m) => m.buttons.flat().some((b) => b.text.includes(text)));
    if (!message) throw new StepFailure('button_not_found', englishText('runMessage', 'no_message_with_button', { chat: context.target.chat_id, text }));
    if (!message.buttons.flat().some((b) => b.text.includes(text))) {
      throw new StepFailure('button_not_found', message.buttons.flat().length === 0
          ? englishText('runMessage', 'reply_without_buttons', { text })
          : englishText('runMessage', 'reply_without_button', { text, buttons: message.buttons.flat().map((b) => `"${b.text}"`).join(', ') }));
    }
    await this.press(message, text, context);
  }

  /** The bot's reply to the chat's previous action as it is now (its buttons may have changed since). */
  private async replyWithButtons(context: ActionContext): Promise<TelegramMessage> {
    const previous = context.previousReply;
    if (!previous) throw new StepFailure('button_not_found', englishText('runMessage', 'no_reply_to_press', { chat: context.target.chat_id }));
    const [current] = await this.call(context, (options) => this.gateway.getMessages(context.session, context.target.chat_id, { ...options, ids: [previous.id] }));
    if (!current) throw new StepFailure('button_not_found', englishText('runMessage', 'reply_gone', { message: previous.id }));
    context.log({ level: 'info', ...coded('using_previous_reply', { id: previous.id }, `using the bot's reply to the previous action (message ${previous.id})`) });
    return current;
  }

  private async aiChooseOption(action: TaskAction, context: ActionContext): Promise<void> {
    const recent = await this.recentIncoming(context);
    const message = recent.find((m) => m.hasMedia && m.mediaKind === 'photo' && m.buttons.length > 0) ?? recent.find((m) => m.hasMedia && m.mediaKind === 'photo');
    if (!message) throw new StepFailure('target_not_found', englishText('runMessage', 'no_image_to_choose', { chat: context.target.chat_id }));
    const options = message.buttons.flat().map((b) => b.text);
    if (options.length === 0) throw new StepFailure('button_not_found', englishText('runMessage', 'image_without_options'));
    const image = await this.download(message, context);
    const answer = await this.askAi(context, {
      instruction: `Look at the image and pick the one option it asks for. Options: ${options.map((o) => JSON.stringify(o)).join(', ')}. Answer with the option text only.${action.ai_prompt ? ` ${action.ai_prompt}` : ''}`,
      text: message.text || undefined,
      image,
    });
    const button = buttonMatching(message.buttons, answer);
    if (!button) throw new StepFailure('button_not_found', englishText('runMessage', 'model_matches_no_option', { answer, options: options.join(', ') }));
    await this.press(message, button.text, context);
  }

  private async aiAnswerCalculation(action: TaskAction, context: ActionContext): Promise<void> {
    const question = (await this.recentIncoming(context)).find((m) => m.text.trim().length > 0);
    if (!question) throw new StepFailure('target_not_found', englishText('runMessage', 'no_question', { chat: context.target.chat_id }));
    const answer = await this.askAi(context, {
      instruction: `Solve the calculation question. Answer with the result only, no words.${action.ai_prompt ? ` ${action.ai_prompt}` : ''}`,
      text: question.text,
    });
    await this.sendText(answer, context);
  }

  private async aiReadImage(action: TaskAction, context: ActionContext): Promise<void> {
    const message = (await this.recentIncoming(context)).find((m) => m.hasMedia && m.mediaKind === 'photo');
    if (!message) throw new StepFailure('target_not_found', englishText('runMessage', 'no_image_to_read', { chat: context.target.chat_id }));
    const image = await this.download(message, context);
    const answer = await this.askAi(context, {
      instruction: `Read the characters shown in the image (a captcha or code). Answer with exactly those characters only.${action.ai_prompt ? ` ${action.ai_prompt}` : ''}`,
      text: message.text || undefined,
      image,
    });
    await this.sendText(answer, context);
  }

  private async aiCalculateAndClick(action: TaskAction, context: ActionContext): Promise<void> {
    const message = action.from_reply ? await this.replyWithButtons(context) : (await this.recentIncoming(context)).find((m) => m.buttons.length > 0);
    if (!message) throw new StepFailure('button_not_found', englishText('runMessage', 'no_message_with_buttons', { chat: context.target.chat_id }));
    const options = message.buttons.flat().map((b) => b.text);
    const image = message.hasMedia && message.mediaKind === 'photo' ? await this.download(message, context) : undefined;
    const answer = await this.askAi(context, {
      instruction: `Solve the calculation in the message and pick the button with the result. Buttons: ${options.map((o) => JSON.stringify(o)).join(', ')}. Answer with the button text only.${action.ai_prompt ? ` ${action.ai_prompt}` : ''}`,
      text: message.text || undefined,
      image,
    });
    const button = buttonMatching(message.buttons, answer);
    if (!button) throw new StepFailure('button_not_found', englishText('runMessage', 'model_matches_no_button', { answer, options: options.join(', ') }));
    await this.press(message, button.text, context);
  }

  /**
   * Action 1. As a listen follow-up it may compute its text like a tg-signer monitor reply: the
   * model's reply to the hit message (`ai_reply`), or the first capture group of
   * `send_text_search_regex` in it, else `text`. With no text at all nothing is sent (logged).
   */
  private async sendFollowUpOrText(action: TaskAction, context: ActionContext): Promise<void> {
    const message = context.variables?.['message'] ?? '';
    let text = action.text === undefined ? '' : fillTemplate(action.text, context.variables);
    if (action.send_text_search_regex !== undefined) {
      // RE2 (linear time): the message is untrusted chat text.
      const match = LinearRegex.compile(action.send_text_search_regex, { ignoreCase: false }).exec(message);
      if (match) {
        if (match[1] === undefined) throw new StepFailure('strong_failure', englishText('runMessage', 'regex_without_group', { regex: JSON.stringify(action.send_text_search_regex) }));
        text = match[1];
      }
    }
    if (action.ai_reply) text = await this.askAi(context, { instruction: action.ai_prompt ?? '', text: message || '(empty message)' });
    if (!text.trim()) {
      context.log({ level: 'warn', ...coded('nothing_to_send', {}, 'nothing to send: no text, no regex match and no model reply') });
      return;
    }
    return this.sendText(text, context);
  }

  /**
   * Action 9, like the panel users migrate from: every `t.me/<bot>?start=<arg>` link in the hit
   * message (the bot replaced by `bot_username` when set), else `start_param` (default `{keyword}`)
   * sent to `bot_username`; each as `<command_prefix> <arg>` (default `/start`), at most `max_batch`.
   */
  private async followDeepLink(action: TaskAction, context: ActionContext): Promise<void> {
    const configuredBot = action.bot_username?.replace(/^@/, '');
    const command = (action.command_prefix ?? '/start').replace(/^\/?/, '/');
    const source = [context.variables?.['url'], context.variables?.['message'], context.variables?.['text']].filter(Boolean).join('\n');
    const jobs: Array<{ bot: string; argument: string }> = [];
    const seen = new Set<string>();
    const add = (bot: string, argument: string): void => {
      const key = `${bot.toLowerCase()} ${argument}`;
      if (!argument.trim() || seen.has(key)) return;
      seen.add(key);
      jobs.push({ bot, argument: argument.trim() });
    };
    for (const link of source.matchAll(new RegExp(DEEP_LINK_PATTERN.source, 'gi'))) add(configuredBot ?? link[1], link[2]);
    if (jobs.length === 0 && configuredBot) add(configuredBot, fillTemplate(action.start_param ?? '{keyword}', context.variables));
    if (jobs.length === 0) throw new StepFailure('target_not_found', englishText('runMessage', configuredBot ? 'no_start_argument' : 'no_start_link'));
    const limit = action.max_batch ?? TASK_LIMITS.maxBatch.default;
    if (jobs.length > limit) context.log({ level: 'warn', ...coded('bots_capped', { count: jobs.length, limit }, `${jobs.length} bots to start; only the first ${limit} (max_batch)`) });
    for (const { bot, argument } of jobs.slice(0, limit)) {
      const text = `${command} ${argument}`;
      const sent = await this.call(context, (options) => this.gateway.sendMessage(context.session, `@${bot}`, text, options));
      context.onSent?.(`@${bot}`, sent);
      context.log({ level: 'info', ...coded('sent_to_bot', { text, bot }, `sent ${text} to @${bot}`) });
      await this.recordReply(sent.id, { ...context, target: { chat_id: `@${bot}` } });
    }
  }

  /**
   * Reads the bot's answer to the chat's last action (a new message after the mark, edited or not,
   * or the pressed message edited since) until a pattern matches or `timeout_seconds` pass. Only the target's messages
   * count: in a private chat every incoming one; in a group replies to our message and messages
   * from `rules.from`. Unmatched answers go to the model when `ai_fallback` asks for it.
   */
  async awaitVerdict(rules: ChatVerdictRules, mark: AnswerMark, context: ActionContext): Promise<VerdictResult> {
    const matcher = new VerdictMatcher(rules);
    const timeoutMs = (rules.timeout_seconds ?? VERDICT_LIMITS.timeoutSeconds.default) * 1000;
    const deadline = Date.now() + timeoutMs;
    const pollMs = this.timings.verdictPollMs ?? 1_500;
    const fromTarget = targetFilter(context.target.chat_id, rules.from, mark.ownMessageId);
    const seen = new Map<number, string>();
    let lastUnmatched: string | null = null;
    for (;;) {
      const messages = await this.call(context, (options) => this.gateway.getMessages(context.session, context.target.chat_id, { ...options, limit: 50 }));
      const answers = messages
        .filter((m) => !m.out && fromTarget(m) && (m.id > mark.afterId || (m.id === mark.pressedMessageId && m.editDate !== undefined && m.editDate >= mark.sinceSeconds)))
        .sort((a, b) => a.id - b.id);
      for (const answer of answers) {
        const text = answer.text;
        if (seen.get(answer.id) === text) continue;
        seen.set(answer.id, text);
        const hit = matcher.classify(text);
        if (hit) {
          const how = answer.editDate !== undefined ? 'edited message' : 'reply';
          return {
            verdict: hit.verdict,
            text: clipMatchedText(text),
            reason: `${how} matched ${hit.pattern.mode} pattern ${JSON.stringify(hit.pattern.pattern)}`,
            reasonCode: 'pattern_matched',
            reasonParams: { edited: answer.editDate !== undefined ? 1 : 0, mode: hit.pattern.mode, pattern: hit.pattern.pattern },
          };
        }
        if (text.trim()) lastUnmatched = text;
      }
      if (Date.now() + pollMs > deadline) break;
      await waitFor(pollMs, context.signal);
    }
    if (lastUnmatched !== null && rules.ai_fallback) {
      const answer = await this.askAi(context, {
        instruction:
          'A Telegram check-in bot answered the message below. Classify the answer with exactly one word: success (the check-in worked), already_done (it was done before today), failed (it did not work), or unconfirmed (cannot tell).',
        text: lastUnmatched,
      });
      const word = answer.trim().toLowerCase().replace(/[^a-z_]/g, '');
      const verdict = RUN_VERDICTS.find((v) => v === word) ?? 'unconfirmed';
      return { verdict, text: clipMatchedText(lastUnmatched), reason: `no pattern matched; the model classified the answer as ${verdict}`, reasonCode: 'model_classified', reasonParams: { verdict } };
    }
    const seconds = Math.round(timeoutMs / 1000);
    if (lastUnmatched !== null) {
      return { verdict: 'unconfirmed', text: clipMatchedText(lastUnmatched), reason: `no pattern matched the answer within ${seconds} s`, reasonCode: 'no_pattern_matched', reasonParams: { seconds } };
    }
    return { verdict: 'unconfirmed', text: null, reason: `no answer from the target within ${seconds} s`, reasonCode: 'no_answer', reasonParams: { seconds } };
  }

  // ----- helpers ----------------------------------------------------------------------------

  private async press(message: TelegramMessage, buttonText: string, context: ActionContext): Promise<void> {
    const sinceSeconds = Math.floor(Date.now() / 1000);
    const before = await this.recentIncoming(context, 1);
    context.onMark?.({ afterId: Math.max(message.id, before[0]?.id ?? 0), sinceSeconds, pressedMessageId: message.id });
    const result = await this.call(context, (options) => this.gateway.clickButton(context.session, context.target.chat_id, message.id, buttonText, options));
    if (result.kind === 'sent') {
      context.onSent?.(context.target.chat_id, result.message);
      context.log({ level: 'info', ...coded('pressed_keyboard', { button: buttonText }, `pressed keyboard button "${buttonText}"`) });
      await this.recordReply(result.message.id, context);
      return;
    }
    context.log({
      level: 'info',
      ...(result.answer
        ? coded('clicked_answered', { button: buttonText, answer: result.answer }, `clicked "${buttonText}"; bot answered: ${result.answer}`)
        : coded('clicked', { button: buttonText }, `clicked "${buttonText}"`)),
    });
    const latest = await this.recentIncoming(context, 1);
    await this.recordReply(Math.max(message.id, latest[0]?.id ?? 0), context, { quiet: Boolean(result.answer) });
  }

  /** Waits for the bot's reply after `afterId` and writes it to the flow log. */
  private async recordReply(afterId: number, context: ActionContext, options: { quiet?: boolean } = {}): Promise<void> {
    const reply = await this.call(context, (callOptions) =>
      this.gateway.waitForReply(context.session, context.target.chat_id, afterId, { signal: callOptions.signal, timeoutMs: this.timings.replyWaitMs }),
    );
    context.onReply?.(reply);
    if (reply) {
      const shown = reply.text || (reply.hasMedia ? `[${reply.mediaKind ?? 'media'}]` : '(empty)');
      context.log({ level: 'info', ...coded('reply', reply.text ? { text: reply.text } : reply.hasMedia ? { media: reply.mediaKind ?? 'other' } : {}, `reply: ${shown}`) });
    } else if (!options.quiet) {
      const seconds = Math.round(this.timings.replyWaitMs / 1000);
      context.log({ level: 'warn', ...coded('no_reply', { seconds }, `no reply within ${seconds} s`) });
    }
  }

  private async recentIncoming(context: ActionContext, limit = 20): Promise<TelegramMessage[]> {
    const messages = await this.call(context, (options) => this.gateway.getMessages(context.session, context.target.chat_id, { ...options, limit }));
    return messages.filter((m) => !m.out);
  }

  private async download(message: TelegramMessage, context: ActionContext): Promise<{ data: Buffer; mimeType: string }> {
    const media = await this.call(context, (options) => this.gateway.downloadMedia(context.session, context.target.chat_id, message.id, options));
    if (!media) throw new StepFailure('target_not_found', englishText('runMessage', 'no_downloadable_image', { message: message.id }));
    return media;
  }

  private async askAi(context: ActionContext, question: AiQuestion): Promise<string> {
    try {
      const answer = await this.ai.answer(question, { signal: context.signal, timeoutMs: this.timings.aiTimeoutMs });
      context.log({ level: 'info', ...coded('model_answered', { answer }, `model answered: ${answer}`) });
      return answer;
    } catch (error) {
      if (context.signal.aborted) throw interruptionOf(context.signal);
      throw error;
    }
  }

  /** A gateway call with the run's signal and the per-call deadline; an abort becomes the run's interruption. */
  private async call<T>(context: ActionContext, run: (options: CallOptions) => Promise<T>): Promise<T> {
    if (context.signal.aborted) throw interruptionOf(context.signal);
    try {
      return await run({ signal: context.signal, timeoutMs: this.timings.telegramCallTimeoutMs, budgetMaxWaitMs: context.budgetMaxWaitMs });
    } catch (error) {
      if (context.signal.aborted || isTelegramError(error, 'aborted')) throw interruptionOf(context.signal);
      throw error;
    }
  }
}

/**
 * Which incoming messages of a chat are the target's: every one in a private chat (a positive id or
 * an @username without `from`), otherwise replies to our message and messages of `from`.
 */
function targetFilter(chatId: ChatId, from: string | undefined, ownMessageId: number | undefined): (message: TelegramMessage) => boolean {
  const fromUser = from?.startsWith('@') ? from.slice(1).toLowerCase() : undefined;
  const fromId = from !== undefined && !from.startsWith('@') ? from : undefined;
  const isFrom = (m: TelegramMessage): boolean => (fromUser !== undefined && m.senderUsername?.toLowerCase() === fromUser) || (fromId !== undefined && m.senderId === fromId);
  const isReply = (m: TelegramMessage): boolean => ownMessageId !== undefined && m.replyToMessageId === ownMessageId;
  const group = String(chatId).startsWith('-');
  if (from === undefined && !group) return () => true;
  return (m) => isReply(m) || isFrom(m);
}

/** A random whole number of seconds in [0, max]. */
export function randomSeconds(max: number): number {
  return max > 0 ? randomInt(0, Math.floor(max) + 1) : 0;
}
