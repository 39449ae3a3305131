import type { OutboundProxy } from '@shared/outbound-http';
import { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';

export interface OutboundProxySettings {
  /** HTTPS_PROXY: every outbound request (http and https targets) goes through it. */
  httpsProxy?: string;
  /** NO_PROXY: comma-separated hosts, domains (`.example.com`), `host:port` or `*` that bypass the proxy. */
  noProxy?: string;
}

/** The undici dispatcher every outbound call (GitHub, Telegram, webhooks, AI) is made through. */
export const OUTBOUND_DISPATCHER = Symbol('OUTBOUND_DISPATCHER');

/**
 * Builds the one outbound dispatcher: a direct agent when no proxy is configured, otherwise an
 * agent that sends through HTTPS_PROXY (CONNECT tunnels) except for NO_PROXY matches. Every option
 * is passed explicitly so undici never falls back to reading process.env itself.
 */
export function createOutboundDispatcher(settings: OutboundProxySettings, options: Agent.Options = {}): Dispatcher {
  const proxy = settings.httpsProxy?.trim();
  if (!proxy) return new Agent(options);
  return new EnvHttpProxyAgent({
    ...options,
    httpProxy: proxy,
    httpsProxy: proxy,
    noProxy: settings.noProxy?.trim() ?? '',
  });
}

/**
 * The same settings for senders that connect by themselves (the outbound webhook pins the address
 * it vetted and tunnels to it with CONNECT); undefined when no proxy is configured.
 */
export function outboundProxy(settings: OutboundProxySettings): OutboundProxy | undefined {
  const url = settings.httpsProxy?.trim();
  return url ? { url, noProxy: settings.noProxy?.trim() ?? '' } : undefined;
}
