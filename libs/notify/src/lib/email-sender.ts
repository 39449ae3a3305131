import { createTransport } from 'nodemailer';
import { type HostResolver, resolveTarget } from './address-guard';
import type { PushMessage, PushResult, PushSender } from './push-channels';

export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465); otherwise STARTTLS is used when offered. */
  secure: boolean;
  /** Refuse to send unless the connection is encrypted (STARTTLS required on a plain port). */
  requireTls: boolean;
  username?: string;
  password?: string;
  from: string;
  to: string[];
}

export interface EmailSenderOptions {
  /** Connection, greeting and socket timeout (default 10 s). */
  timeoutMs?: number;
  /** The destination guard: a host resolving to a private address is refused unless `allowPrivate`. */
  addressGuard?: { allowPrivate: boolean; resolver?: HostResolver };
}

/** Longest subject line sent; longer titles are cut. */
export const EMAIL_SUBJECT_LIMIT = 200;

interface SmtpError {
  code?: string;
  responseCode?: number;
  message?: string;
}

/** An SMTP failure in the outbox's terms: 4xx replies and connection trouble are worth retrying, 5xx and bad credentials are not. */
export function classifySmtpError(error: unknown): Pick<PushResult, 'outcome' | 'errorCode' | 'message' | 'status'> {
  const failure = (error ?? {}) as SmtpError;
  const reply = failure.responseCode;
  const message = (failure.message ?? 'SMTP error').replace(/\s+/g, ' ').slice(0, 300);
  if (reply !== undefined) {
    if (reply >= 400 && reply < 500) return { outcome: 'retryable', errorCode: 'rejected_by_receiver', status: reply, message };
    return { outcome: 'permanent', errorCode: 'rejected_by_receiver', status: reply, message };
  }
  if (failure.code === 'EAUTH' || failure.code === 'EENVELOPE' || failure.code === 'EMESSAGE') return { outcome: 'permanent', errorCode: 'rejected_by_receiver', message };
  if (failure.code === 'ETIMEDOUT') return { outcome: 'retryable', errorCode: 'timeout', message };
  return { outcome: 'retryable', errorCode: 'network_error', message };
}

/**
 * Email over SMTP with nodemailer: one plain-text message (title as the subject, body, link) to
 * the configured recipients. The host passes the address guard first and the connection goes to
 * the vetted address (the certificate is still checked against the host name).
 */
export class EmailSender implements PushSender {
  readonly channel = 'email' as const;

  constructor(
    private readonly settings: SmtpSettings,
    private readonly options: EmailSenderOptions = {},
  ) {}

  /** The message as nodemailer takes it. */
  mail(message: PushMessage): { from: string; to: string[]; subject: string; text: string } {
    const subject = message.title.replace(/[\r\n]+/g, ' ');
    const text = message.url ? `${message.body}\n\n${message.url}\n` : `${message.body}\n`;
    return { from: this.settings.from, to: this.settings.to, subject: subject.length > EMAIL_SUBJECT_LIMIT ? `${subject.slice(0, EMAIL_SUBJECT_LIMIT - 1)}…` : subject, text };
  }

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const done = (result: Omit<PushResult, 'channel' | 'attempts' | 'durationMs'>, attempts = 1): PushResult => ({ channel: this.channel, ...result, attempts, durationMs: Date.now() - started });
    let connectTo = this.settings.host;
    if (this.options.addressGuard) {
      const host = this.settings.host.includes(':') ? `[${this.settings.host}]` : this.settings.host;
      const check = await resolveTarget(`https://${host}:${this.settings.port}/`, this.options.addressGuard);
      if (!check.ok) return done({ outcome: check.reason === 'dns_failed' ? 'retryable' : 'permanent', errorCode: check.reason, message: check.message }, 0);
      connectTo = check.address.address;
    }
    const timeout = this.options.timeoutMs ?? 10_000;
    const transport = createTransport({
      host: connectTo,
      port: this.settings.port,
      secure: this.settings.secure,
      requireTLS: this.settings.requireTls,
      auth: this.settings.username ? { user: this.settings.username, pass: this.settings.password ?? '' } : undefined,
      tls: { servername: this.settings.host },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    try {
      const info = (await transport.sendMail(this.mail(message))) as { rejected?: unknown[]; response?: string };
      if (Array.isArray(info.rejected) && info.rejected.length > 0) {
        return done({ outcome: 'permanent', errorCode: 'rejected_by_receiver', message: `the server refused ${info.rejected.length} recipient(s)` });
      }
      return done({ outcome: 'sent', responseSnippet: info.response?.slice(0, 200) });
    } catch (error) {
      return done(classifySmtpError(error));
    } finally {
      transport.close();
    }
  }
}
