import type { PlainHttpRule } from '@shared/notify';

/**
 * Where a channel's plain http URL may deliver: anywhere with MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE,
 * only to a private or loopback receiver when the channel allows private targets (a local
 * receiver), nowhere otherwise (HTTPS only, as the spec asks).
 */
export function plainHttpRule(allowPrivate: boolean, allowInsecure: boolean): PlainHttpRule {
  if (allowInsecure) return 'allow';
  return allowPrivate ? 'private_only' : 'refuse';
}
