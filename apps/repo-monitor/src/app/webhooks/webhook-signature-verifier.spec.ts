import { createHmac } from 'node:crypto';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';

const sign = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('WebhookSignatureVerifier', () => {
  const verifier = new WebhookSignatureVerifier();
  const body = Buffer.from(JSON.stringify({ action: 'opened', title: 'Ünïcödé ✓' }));

  it('accepts the current or the previous secret over the exact bytes', () => {
    expect(verifier.verify(['current', 'previous'], body, sign('current', body))).toBe(true);
    expect(verifier.verify(['current', 'previous'], body, sign('previous', body))).toBe(true);
    expect(verifier.verify(['current', undefined], body, sign('current', body))).toBe(true);
  });

  it('refuses another secret, a changed body, a missing signature or no secret at all', () => {
    expect(verifier.verify(['current'], body, sign('other', body))).toBe(false);
    expect(verifier.verify(['current'], Buffer.concat([body, Buffer.from(' ')]), sign('current', body))).toBe(false);
    expect(verifier.verify(['current'], body, undefined)).toBe(false);
    expect(verifier.verify([undefined, undefined], body, sign('current', body))).toBe(false);
    expect(verifier.verify(['current'], Buffer.alloc(0), sign('current', Buffer.alloc(0)))).toBe(false);
  });

  it('checks bodies that are not valid UTF-8 over their bytes', () => {
    const binary = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(verifier.verify(['current'], binary, sign('current', binary))).toBe(true);
    // The same bytes decoded and re-encoded would sign differently: no false accept through decoding.
    const roundTripped = Buffer.from(binary.toString('utf8'), 'utf8');
    expect(verifier.verify(['current'], binary, sign('current', roundTripped))).toBe(false);
  });
});
