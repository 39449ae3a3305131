import {
  BarkSender,
  DiscordWebhookSender,
  EmailSender,
  GotifySender,
  NtfySender,
  type PushMessage,
  type PushSender,
  SlackWebhookSender,
  TeamsWorkflowSender,
} from '@shared/notify';
import type { Dispatcher } from 'undici';
import type { ChannelKind } from './notification-channel.entity';

export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** A channel's stored `config` (JSON): what each kind needs besides its secret. */
export interface ChannelConfig {
  /** telegram */
  chat_id?: string;
  /** telegram: the default forum topic. */
  message_thread_id?: number;
  /** http_webhook: receiver; ntfy: topic URL; gotify: server URL. (discord, slack, teams, bark keep theirs in the secret.) */
  url?: string;
  /** email */
  smtp_host?: string;
  smtp_port?: number;
  smtp_security?: SmtpSecurity;
  smtp_username?: string;
  email_from?: string;
  email_to?: string[];
}

/** Kinds whose whole URL is the secret (it carries the token or device key): stored sealed, shown shortened. */
export const SECRET_URL_KINDS: readonly ChannelKind[] = ['discord', 'slack', 'teams', 'bark'];
/** Kinds sent through a PushSender of @shared/notify. */
export const PUSH_KINDS: readonly ChannelKind[] = ['discord', 'slack', 'teams', 'bark', 'ntfy', 'gotify', 'email'];

/** A channel as a push sender needs it: kind, config and the secret in clear. */
export interface PushTarget {
  kind: ChannelKind;
  config: ChannelConfig;
  secret: string;
  allowPrivate: boolean;
}

/** The sender of a push kind (undefined for telegram and http_webhook, which have their own). */
export function pushSenderFor(target: PushTarget, options: { timeoutMs: number; dispatcher?: Dispatcher }): PushSender | undefined {
  const common = { timeoutMs: options.timeoutMs, dispatcher: options.dispatcher, addressGuard: { allowPrivate: target.allowPrivate } };
  const config = target.config;
  switch (target.kind) {
    case 'discord':
      return new DiscordWebhookSender(target.secret, { ...common, username: 'repo-monitor' });
    case 'slack':
      return new SlackWebhookSender(target.secret, common);
    case 'teams':
      return new TeamsWorkflowSender(target.secret, common);
    case 'bark':
      return new BarkSender(target.secret, { ...common, group: 'repo-monitor' });
    case 'ntfy':
      return new NtfySender(config.url ?? '', { ...common, accessToken: target.secret || undefined });
    case 'gotify':
      return new GotifySender(config.url ?? '', target.secret, common);
    case 'email':
      return new EmailSender(
        {
          host: config.smtp_host ?? '',
          port: config.smtp_port ?? 587,
          secure: config.smtp_security === 'tls',
          requireTls: config.smtp_security === 'starttls',
          username: config.smtp_username,
          password: target.secret || undefined,
          from: config.email_from ?? '',
          to: config.email_to ?? [],
        },
        { timeoutMs: options.timeoutMs, addressGuard: { allowPrivate: target.allowPrivate } },
      );
    default:
      return undefined;
  }
}

/**
 * A notification as a push message: its heading as the title (or the rendered title template), the
 * rest of the plain text as the body (or the rendered template, already in the channel's markup).
 */
export function pushMessageOf(message: {
  title: string;
  bodyPlain: string;
  url: string | null;
  template?: { format: string; text: string };
  titleTemplate?: { text: string };
}): PushMessage {
  const title = message.titleTemplate?.text || message.title;
  if (message.template) {
    const text = message.template.text.trim();
    return { title, body: text === '' ? title : text, url: message.url ?? undefined, formatted: message.template.format !== 'plain' };
  }
  const lines = message.bodyPlain.split('\n');
  const body = lines[0] === message.title ? lines.slice(1).join('\n') : message.bodyPlain;
  return { title, body: body.trim() === '' ? title : body, url: message.url ?? undefined };
}
