import { LocalWebhookReceiver, verifySha256SignatureHeader } from '@shared/testing';
import { BarkSender, CustomWebhookSender, encodeHeaderValue, NtfySender, ServerChanSender } from './push-channels';

describe('push channels against a local receiver', () => {
  const receiver = new LocalWebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => {
    receiver.clearRequests();
    receiver.setDefaultReply({ status: 200, body: 'ok' });
  });

  describe('Bark', () => {
    it('POSTs title and body as JSON to the device URL', async () => {
      receiver.replyNext({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"code":200,"message":"success","timestamp":1}' });
      const result = await new BarkSender(receiver.urlFor('/DEVICEKEY/'), { group: 'signpulse' }).send({ title: '关键词命中', body: 'hello', url: 'https://t.me/c/1/2' });
      expect(result).toMatchObject({ channel: 'bark', outcome: 'sent', status: 200 });
      const request = receiver.requests[0];
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/DEVICEKEY');
      expect(JSON.parse(request?.bodyText ?? '')).toEqual({ title: '关键词命中', body: 'hello', url: 'https://t.me/c/1/2', group: 'signpulse' });
    });

    it('GETs /<title>/<body> in GET mode', async () => {
      receiver.replyNext({ status: 200, body: '{"code":200}' });
      await new BarkSender(receiver.urlFor('/KEY'), { method: 'GET' }).send({ title: 'a/b', body: 'c d' });
      expect(receiver.requests[0]?.url).toBe('/KEY/a%2Fb/c%20d');
    });

    it('reports a refusal inside a 200 as permanent and a 500 as retryable', async () => {
      receiver.replyNext({ status: 200, body: '{"code":400,"message":"failed to get device token"}' }, { status: 500 });
      const bark = new BarkSender(receiver.urlFor('/KEY'));
      expect(await bark.send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'permanent', errorCode: 'rejected_by_receiver', message: expect.stringContaining('failed to get device token') });
      expect(await bark.send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'retryable', status: 500 });
    });

    it('refuses a URL that is not http(s) without sending', async () => {
      expect(await new BarkSender('javascript:alert(1)').send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'permanent', errorCode: 'invalid_url' });
      expect(receiver.requests).toHaveLength(0);
    });
  });

  describe('ServerChan', () => {
    it('POSTs {title, desp} to <base>/<key>.send and checks code 0', async () => {
      receiver.replyNext({ status: 200, body: '{"code":0,"message":"","data":{"pushid":"1"}}' }, { status: 200, body: '{"code":40001,"message":"bad pushkey"}' });
      const sender = new ServerChanSender('SCT123abc', { baseUrl: receiver.url });
      expect(sender.endpoint()).toBe(`${receiver.url}/SCT123abc.send`);
      expect(await sender.send({ title: 'T', body: 'B', url: 'https://x.test' })).toMatchObject({ channel: 'server_chan', outcome: 'sent' });
      expect(JSON.parse(receiver.requests[0]?.bodyText ?? '')).toEqual({ title: 'T', desp: 'B\n\nhttps://x.test' });
      expect(receiver.requests[0]?.path).toBe('/SCT123abc.send');
      expect(await sender.send({ title: 'T', body: 'B' })).toMatchObject({ outcome: 'permanent', message: expect.stringContaining('bad pushkey') });
    });

    it('knows the public endpoints for classic and Server酱³ keys', () => {
      expect(new ServerChanSender('SCT1').endpoint()).toBe('https://sctapi.ftqq.com/SCT1.send');
      expect(new ServerChanSender('sctp1234tAbC').endpoint()).toBe('https://1234.push.ft07.com/send/sctp1234tAbC.send');
    });

    it('refuses an empty key', async () => {
      expect(await new ServerChanSender('').send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'permanent', errorCode: 'invalid_url' });
    });
  });

  describe('ntfy', () => {
    it('POSTs the body to the topic with an encoded Title header', async () => {
      const result = await new NtfySender(receiver.urlFor('/alerts'), { accessToken: 'tk_1', priority: 4, tags: ['warning'] }).send({ title: 'Hit: 签到', body: 'line 1\nline 2', url: 'https://x.test' });
      expect(result).toMatchObject({ channel: 'ntfy', outcome: 'sent' });
      const request = receiver.requests[0];
      expect(request?.bodyText).toBe('line 1\nline 2');
      expect(request?.headers['title']).toBe(encodeHeaderValue('Hit: 签到'));
      expect(Buffer.from((request?.headers['title'] as string).slice(10, -2), 'base64').toString()).toBe('Hit: 签到');
      expect(request?.headers['click']).toBe('https://x.test');
      expect(request?.headers['priority']).toBe('4');
      expect(request?.headers['authorization']).toBe('Bearer tk_1');
      expect(encodeHeaderValue('plain')).toBe('plain');
    });

    it('times out a topic server that does not answer', async () => {
      receiver.replyNext({ status: 200, delayMs: 2000 });
      expect(await new NtfySender(receiver.urlFor('/slow'), { timeoutMs: 150 }).send({ title: 't', body: 'b' })).toMatchObject({ outcome: 'retryable', errorCode: 'timeout' });
    });
  });

  describe('custom webhook', () => {
    it('signs the body, sends a delivery id and retries retryable failures with the same id', async () => {
      receiver.replyNext({ status: 503 }, { status: 429, headers: { 'retry-after': '0' } }, { status: 204 });
      const sender = new CustomWebhookSender(receiver.urlFor('/custom'), { secret: 'hook-secret', retry: { attempts: 4, initialDelayMs: 10 } });
      const result = await sender.send({ title: 'T', body: 'B' }, { keyword: 'sign' }, 'delivery-1');
      expect(result).toMatchObject({ channel: 'custom_webhook', outcome: 'sent', status: 204, attempts: 3, deliveryId: 'delivery-1' });
      expect(receiver.requests).toHaveLength(3);
      for (const request of receiver.requests) {
        expect(request.headers['x-delivery-id']).toBe('delivery-1');
        expect(verifySha256SignatureHeader(request, 'hook-secret')).toBe(true);
        expect(JSON.parse(request.bodyText)).toMatchObject({ delivery_id: 'delivery-1', title: 'T', body: 'B', keyword: 'sign' });
      }
    });

    it('stops at once on a permanent failure and after the attempts on retryable ones', async () => {
      const sender = new CustomWebhookSender(receiver.urlFor('/custom'), { retry: { attempts: 2, initialDelayMs: 5 } });
      receiver.replyNext({ status: 404 });
      expect(await sender.sendJson({ a: 1 })).toMatchObject({ outcome: 'permanent', attempts: 1, status: 404 });
      receiver.replyNext({ status: 502 }, { status: 502 });
      expect(await sender.sendJson({ a: 1 })).toMatchObject({ outcome: 'retryable', attempts: 2, status: 502 });
      expect(receiver.requests).toHaveLength(3);
      expect(receiver.requests[0]?.headers['x-signature-256']).toBeUndefined();
    });

    it('does not follow a redirect', async () => {
      receiver.replyNext({ status: 302, redirectTo: receiver.urlFor('/other') });
      expect(await new CustomWebhookSender(receiver.urlFor('/custom')).sendJson({})).toMatchObject({ outcome: 'permanent', errorCode: 'redirect_refused', attempts: 1 });
      expect(receiver.requestsTo('/other')).toHaveLength(0);
    });
  });
});
