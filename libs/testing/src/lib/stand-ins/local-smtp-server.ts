import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the stand-in accepted. */
export interface SmtpRecordedMessage {
  from: string;
  to: string[];
  /** The user name the client authenticated as, if it did. */
  user?: string;
  /** The raw RFC 5322 message, headers and body. */
  raw: string;
}

export interface LocalSmtpServerOptions {
  /** When set, AUTH is required and only this user and password pass. */
  credentials?: { user: string; password: string };
}

/**
 * A local SMTP server (the `smtp-server` package) on 127.0.0.1 that records every message, with
 * optional AUTH PLAIN/LOGIN and programmable rejections (e.g. 550 for a recipient, 421 busy).
 */
export class LocalSmtpServer {
  readonly messages: SmtpRecordedMessage[] = [];
  private readonly rejections: Array<{ code: number; message: string }> = [];
  private readonly server: SMTPServer;
  private port = 0;

  constructor(options: LocalSmtpServerOptions = {}) {
    const credentials = options.credentials;
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: !credentials,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (credentials && auth.username === credentials.user && auth.password === credentials.password) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const rejection = this.rejections.shift();
          if (rejection) {
            callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }));
            return;
          }
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback(null);
        });
      },
    });
  }

  /** The next messages are refused with these SMTP replies, in order. */
  rejectNext(...rejections: Array<{ code: number; message: string }>): void {
    this.rejections.push(...rejections);
  }

  get host(): string {
    return '127.0.0.1';
  }

  get listeningPort(): number {
    return this.port;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
