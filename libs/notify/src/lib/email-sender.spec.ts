import { LocalSmtpServer } from '@shared/testing';
import { classifySmtpError, EmailSender } from './email-sender';

describe('EmailSender against a local SMTP server', () => {
  const smtp = new LocalSmtpServer({ credentials: { user: 'monitor', password: 'mail-secret' } });
  const settings = () => ({
    host: smtp.host,
    port: smtp.listeningPort,
    secure: false,
    requireTls: false,
    username: 'monitor',
    password: 'mail-secret',
    from: 'repo-monitor <monitor@example.test>',
    to: ['ops@example.test', 'dev@example.test'],
  });

  beforeAll(async () => {
    await smtp.start();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(() => {
    smtp.messages.length = 0;
  });

  it('sends one plain-text message: title as subject, body and link, to every recipient', async () => {
    const result = await new EmailSender(settings(), { addressGuard: { allowPrivate: true } }).send({
      title: 'Workflow CI failed on main',
      body: 'Run #12 (attempt 1) concluded failure',
      url: 'https://github.com/acme/api/actions/runs/12',
    });
    expect(result).toMatchObject({ channel: 'email', outcome: 'sent', attempts: 1 });
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect([mail.from, mail.to, mail.user]).toEqual(['monitor@example.test', ['ops@example.test', 'dev@example.test'], 'monitor']);
    expect(mail.raw).toMatch(/^Subject: Workflow CI failed on main\r$/m);
    expect(mail.raw).toMatch(/^From: "repo-monitor" <monitor@example\.test>\r$/m);
    expect(mail.raw).toMatch(/^Content-Type: text\/plain; charset=utf-8\r$/m);
    expect(mail.raw.split('\r\n\r\n').slice(1).join('\r\n\r\n')).toBe('Run #12 (attempt 1) concluded failure\r\n\r\nhttps://github.com/acme/api/actions/runs/12\r\n');
  });

  it('keeps a subject on one line and within 200 characters', () => {
    const mail = new EmailSender(settings()).mail({ title: `a\r\nBcc: x@evil.test ${'y'.repeat(300)}`, body: 'b' });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect([...mail.subject].length).toBe(200);
  });

  it('reports bad credentials and a 5xx as permanent, a 4xx as retryable, a private host under the guard as refused', async () => {
    expect(await new EmailSender({ ...settings(), password: 'wrong' }).send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'permanent', errorCode: 'rejected_by_receiver' });
    smtp.rejectNext({ code: 552, message: 'Message too big' }, { code: 451, message: 'Try again later' });
    expect(await new EmailSender(settings()).send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'permanent', status: 552 });
    expect(await new EmailSender(settings()).send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'retryable', status: 451 });
    expect(await new EmailSender(settings(), { addressGuard: { allowPrivate: false } }).send({ title: 't', body: 'b' })).toMatchObject({
      outcome: 'permanent',
      errorCode: 'private_target_refused',
      attempts: 0,
    });
    expect(smtp.messages).toHaveLength(0);
  });

  it('reports a closed port as retryable', async () => {
    expect(await new EmailSender({ ...settings(), port: 1 }, { timeoutMs: 2000 }).send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'retryable' });
    expect(classifySmtpError({ code: 'ETIMEDOUT', message: 'Greeting never received' })).toMatchObject({ outcome: 'retryable', errorCode: 'timeout' });
  });
});
