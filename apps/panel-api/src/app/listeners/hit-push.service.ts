import { Inject, Injectable } from '@nestjs/common';
import { GovernorRefusal } from '../governor/account-governor';
import { BarkSender, CustomWebhookSender, describeFetchError, escapeTelegramHtml, PushMessage, PushResult, redirectRefusal, resolveTarget, ServerChanSender } from '@shared/notify';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { PanelNotifier } from '../notifications/panel-notifier.service';
import { ActionRunner } from '../runs/action-runner';
import { SentMessageDeletions } from '../runs/sent-message-deletions';
import type { ChatId, SettingsPushChannel, TaskAction } from '../sign-tasks/sign-task.types';
import { HitVariables, renderTemplate, usesTemplateVariables } from './hit-template';

export type PushOutcome = { status: 'sent' } | { status: 'failed' | 'skipped'; error: string };

/** What the push needs to know about the hit besides the rule. */
export interface HitToPush {
  accountName: string;
  /** The chat the hit came from (resolved numeric id) and its topic. */
  chatId: string;
  threadId?: number;
  variables: HitVariables;
}

const PUSH_TIMEOUT_MS = 10_000;
/** A listener's reply that would wait longer than this for the account's safety budget is skipped: a late answer is worse than none. */
export const LISTENER_REPLY_MAX_WAIT_MS = 60_000;

function pushResultOutcome(result: PushResult): PushOutcome {
  if (result.outcome === 'sent') return { status: 'sent' };
  return { status: 'failed', error: `${result.channel}: ${result.message ?? result.errorCode ?? 'failed'}` };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Delivers a recorded hit through the rule's push_channel. Never throws: every failure becomes a
 * `failed` outcome with the reason, which the caller stores on the hit.
 */
@Injectable()
export class HitPushService {
  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly notifier: PanelNotifier,
    private readonly sessions: AccountSessionsService,
    private readonly actions: ActionRunner,
    private readonly deletions: SentMessageDeletions,
  ) {}

  /** Push URLs reach only public addresses unless APP_OUTBOUND_ALLOW_PRIVATE=1. */
  private get addressGuard(): { allowPrivate: boolean } {
    return { allowPrivate: this.config.outbound.allowPrivate };
  }

  async push(action: TaskAction, hit: HitToPush): Promise<PushOutcome> {
    try {
      const channel = action.push_channel ?? 'telegram';
      switch (channel) {
        case 'telegram':
          return await this.toBot(hit);
        case 'forward':
          return await this.forward(action, hit);
        case 'bark':
          if (!action.bark_url) return { status: 'failed', error: 'bark: bark_url is not set' };
          return pushResultOutcome(await new BarkSender(action.bark_url, { timeoutMs: PUSH_TIMEOUT_MS, addressGuard: this.addressGuard }).send(this.pushMessage(hit)));
        case 'custom':
          return await this.custom(action, hit);
        case 'server_chan':
          if (!action.server_chan_key) return { status: 'failed', error: 'server_chan: server_chan_key is not set' };
          return pushResultOutcome(
            await new ServerChanSender(action.server_chan_key, { baseUrl: this.config.push.serverChanBaseUrl, timeoutMs: PUSH_TIMEOUT_MS, addressGuard: this.addressGuard }).send(this.pushMessage(hit)),
          );
        case 'continue':
          return await this.continueActions(action, hit);
        case 'ntfy':
        case 'discord':
        case 'slack':
        case 'teams':
        case 'gotify':
        case 'email':
          return await this.toSettingsChannel(channel, hit);
        default:
          return { status: 'failed', error: `unknown push_channel ${String(channel)}` };
      }
    } catch (error) {
      if (error instanceof GovernorRefusal) return { status: 'skipped', error: `safety budget: ${error.message}` };
      return { status: 'failed', error: errorText(error) };
    }
  }

  /** Plain-text summary of a hit (Bark, ServerChan, forward). */
  summary(hit: HitToPush): string {
    const v = hit.variables;
    const lines = [`Account: ${v.account_name}`, `Task: ${v.task_name}`, `Chat: ${v.chat_title || v.chat_id}`, `Sender: ${v.sender}`, `Keyword: ${v.keyword}`, '', v.text];
    if (v.url) lines.push('', v.url);
    return lines.join('\n');
  }

  private pushMessage(hit: HitToPush): PushMessage {
    const v = hit.variables;
    return { title: `Keyword hit: ${v.keyword}`, body: this.summary({ ...hit, variables: { ...v, url: '' } }), url: v.url || undefined, linkLabel: 'Open in Telegram' };
  }

  /** Through a push channel saved in the settings (its credentials stay there, none in the task). */
  private async toSettingsChannel(channel: SettingsPushChannel, hit: HitToPush): Promise<PushOutcome> {
    const sender = this.notifier.pushSender(channel);
    if (!sender) return { status: 'failed', error: `${channel}: the ${channel} channel is not set up in the settings` };
    return pushResultOutcome(await sender.send(this.pushMessage(hit)));
  }

  private async toBot(hit: HitToPush): Promise<PushOutcome> {
    const v = hit.variables;
    const lines = [
      `<b>${escapeTelegramHtml(`Keyword hit: ${v.keyword}`)}</b>`,
      `<b>Account</b>: ${escapeTelegramHtml(v.account_name)}`,
      `<b>Task</b>: ${escapeTelegramHtml(v.task_name)}`,
      `<b>Chat</b>: ${escapeTelegramHtml(v.chat_title || v.chat_id)}`,
      `<b>Sender</b>: ${escapeTelegramHtml(v.sender)}`,
      '',
      escapeTelegramHtml(v.text),
    ];
    if (v.url) lines.push('', escapeTelegramHtml(v.url));
    const result = await this.notifier.sendToBot(lines.join('\n'));
    if (!result) return { status: 'failed', error: 'telegram: the bot token and chat id are not set in the settings' };
    return result.ok ? { status: 'sent' } : { status: 'failed', error: `telegram: ${result.description ?? result.errorCode ?? 'send failed'}` };
  }

  private async forward(action: TaskAction, hit: HitToPush): Promise<PushOutcome> {
    if (action.forward_chat_id === undefined) return { status: 'failed', error: 'forward: forward_chat_id is not set' };
    const target = action.forward_chat_id;
    await this.sessions.run(hit.accountName, (gateway, session) =>
      gateway.sendMessage(session, target, this.summary(hit), { threadId: action.forward_message_thread_id, timeoutMs: PUSH_TIMEOUT_MS, budgetMaxWaitMs: LISTENER_REPLY_MAX_WAIT_MS }),
    );
    return { status: 'sent' };
  }

  /**
   * A custom URL that uses template variables is a GET template (each value URL-encoded);
   * otherwise the hit is POSTed as JSON with every variable.
   */
  private async custom(action: TaskAction, hit: HitToPush): Promise<PushOutcome> {
    const url = action.custom_url;
    if (!url) return { status: 'failed', error: 'custom: custom_url is not set' };
    if (usesTemplateVariables(url)) {
      const target = renderTemplate(url, hit.variables, encodeURIComponent);
      const check = await resolveTarget(target, this.addressGuard);
      if (!check.ok) return { status: 'failed', error: `custom: ${check.message}` };
      try {
        const response = await fetch(target, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) });
        await response.arrayBuffer().catch(() => undefined);
        if (response.status >= 300 && response.status < 400) return { status: 'failed', error: `custom: ${redirectRefusal(response.status, response.headers.get('location'), target)}` };
        return response.status >= 200 && response.status < 300 ? { status: 'sent' } : { status: 'failed', error: `custom: HTTP ${response.status}` };
      } catch (error) {
        return { status: 'failed', error: `custom: ${describeFetchError(error).message}` };
      }
    }
    const sender = new CustomWebhookSender(url, { timeoutMs: PUSH_TIMEOUT_MS, retry: { attempts: 2, initialDelayMs: 500 }, addressGuard: this.addressGuard });
    return pushResultOutcome(await sender.sendJson({ event: 'keyword_hit', title: `Keyword hit: ${hit.variables.keyword}`, ...hit.variables }));
  }

  /** Runs continue_actions in continue_chat_id (default: the chat of the hit) with the template variables. */
  private async continueActions(action: TaskAction, hit: HitToPush): Promise<PushOutcome> {
    const followUps = action.continue_actions ?? [];
    if (followUps.length === 0) return { status: 'failed', error: 'continue: continue_actions is empty' };
    const sameChat = action.continue_chat_id === undefined;
    const result = await this.actions.runActions(
      hit.accountName,
      {
        chat_id: sameChat ? hit.chatId : (action.continue_chat_id as string | number),
        message_thread_id: action.continue_message_thread_id ?? (sameChat ? hit.threadId : undefined),
      },
      followUps,
      {
        variables: { ...hit.variables },
        budgetMaxWaitMs: LISTENER_REPLY_MAX_WAIT_MS,
        // Like tg-signer's delete_after: each message is deleted that long after it was sent.
        onSent: (chat: ChatId, message) => {
          if (action.continue_delete_after === undefined) return;
          this.deletions.schedule({
            accountName: hit.accountName,
            taskName: hit.variables.task_name,
            runId: `hit ${hit.variables.chat_id}/${hit.variables.message_id}`,
            chatId: chat,
            messageIds: [message.id],
            delaySeconds: action.continue_delete_after,
          });
        },
      },
    );
    if (!result.success && result.failure_category === 'safety_limit') return { status: 'skipped', error: `safety budget: ${result.error ?? 'refused'}` };
    return result.success ? { status: 'sent' } : { status: 'failed', error: `continue: action ${result.completed + 1} failed: ${result.error ?? result.failure_category}` };
  }
}
