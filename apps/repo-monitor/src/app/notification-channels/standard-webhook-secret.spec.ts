import { Webhook } from 'standardwebhooks';
import { generateStandardWebhookSecret, isStandardWebhookSecret } from './standard-webhook-secret';

describe('Standard Webhooks secrets', () => {
  it('generates whsec_ + base64 of 32 random bytes, different each time, that the official library accepts', () => {
    const secret = generateStandardWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateStandardWebhookSecret()).not.toBe(secret);
    expect(isStandardWebhookSecret(secret)).toBe(true);
    expect(() => new Webhook(secret)).not.toThrow();
  });

  it.each([
    ['24 bytes', `whsec_${Buffer.alloc(24, 1).toString('base64')}`, true],
    ['64 bytes', `whsec_${Buffer.alloc(64, 2).toString('base64')}`, true],
    ['23 bytes', `whsec_${Buffer.alloc(23, 1).toString('base64')}`, false],
    ['65 bytes', `whsec_${Buffer.alloc(65, 1).toString('base64')}`, false],
    ['no prefix', Buffer.alloc(32, 1).toString('base64'), false],
    ['free-form text', 'outbound-signing-secret-0123456789', false],
    ['base64url characters', `whsec_${Buffer.alloc(32, 255).toString('base64url')}`, false],
    ['missing padding', `whsec_${Buffer.alloc(32, 1).toString('base64').replace(/=+$/, '')}`, false],
    ['a space inside', `whsec_${Buffer.alloc(32, 1).toString('base64').slice(0, 10)} ${Buffer.alloc(32, 1).toString('base64').slice(10)}`, false],
  ])('%s: %s → %s', (_name, secret, valid) => {
    expect(isStandardWebhookSecret(secret)).toBe(valid);
  });
});
