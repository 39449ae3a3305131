import { createHmac } from 'node:crypto';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';

const sign = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('WebhookSignatureVerifier', () => {
  const verifier = new WebhookSignatureVerifier();
  const body = Buffer.from(JSON.stringify({ action: 'opened', title: 'Ünïcödé ✓' }));

  it('accepts the current or the previous secret over the exact bytes', async () => {
    expect(await verifier.verify(['current', 'previous'], body, sign('current', body))).toBe(true);
    expect(await verifier.verify(['current', 'previous'], body, sign('previous', body))).toBe(true);
    expect(await verifier.verify(['current', undefined], body, sign('current', body))).toBe(true);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
    expect(await verifier.verify(['current'], withBom, sign('current', withBom))).toBe(true);
    expect(await verifier.verify(['current'], withBom, sign('current', body))).toBe(false);
  });

  it('refuses another secret, a changed body, a missing or malformed signature or no secret at all', async () => {
    expect(await verifier.verify(['current'], body, sign('other', body))).toBe(false);
    expect(await verifier.verify(['current'], Buffer.concat([body, Buffer.from(' ')]), sign('current', body))).toBe(false);
    expect(await verifier.verify(['current'], body, undefined)).toBe(false);
    expect(await verifier.verify(['current'], body, 'sha256=')).toBe(false);
    expect(await verifier.verify(['current'], body, sign('current', body).toUpperCase())).toBe(false);
    expect(await verifier.verify([undefined, undefined], body, sign('current', body))).toBe(false);
    expect(await verifier.verify(['current'], Buffer.alloc(0), sign('current', Buffer.alloc(0)))).toBe(false);
  });

  it('refuses a body that is not valid UTF-8 even when signed, and never accepts its lossy decoding', async () => {
    const binary = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(await verifier.verify(['current'], binary, sign('current', binary))).toBe(false);
    const roundTripped = Buffer.from(binary.toString('utf8'), 'utf8');
    expect(await verifier.verify(['current'], binary, sign('current', roundTripped))).toBe(false);
  });
});
