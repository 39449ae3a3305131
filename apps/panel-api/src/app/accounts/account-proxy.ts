import { TelegramProxy, TelegramProxyType } from '../telegram/telegram-gateway';

const SCHEMES: Record<string, TelegramProxyType> = {
  socks5: 'socks5',
  socks5h: 'socks5',
  socks4: 'socks4',
  http: 'http',
  mtproxy: 'mtproxy',
};

function port(text: string | null): number | undefined {
  if (!text || !/^\d{1,5}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= 65535 ? value : undefined;
}

/** The percent-decoded text, or undefined when it holds a malformed escape (`%zz`, a lone `%`, bad UTF-8). */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Parses a proxy written as a URL: `socks5://[user:pass@]host:port`, `socks4://…`, `http://…`,
 * `mtproxy://<secret>@host:port`, or an MTProxy link `tg://proxy?server=…&port=…&secret=…`
 * (also `https://t.me/proxy?…`). Returns null when the text is none of these.
 */
export function parseProxyUrl(text: string): TelegramProxy | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme === 'tg' || ((scheme === 'https' || scheme === 'http') && url.hostname === 't.me' && url.pathname === '/proxy')) {
    const host = url.searchParams.get('server');
    const proxyPort = port(url.searchParams.get('port'));
    const secret = url.searchParams.get('secret');
    if ((scheme === 'tg' && url.hostname !== 'proxy') || !host || !proxyPort || !secret || !/^[0-9a-fA-F]{32,}$/.test(secret)) return null;
    return { type: 'mtproxy', host, port: proxyPort, secret: secret.toLowerCase() };
  }
  const type = SCHEMES[scheme];
  // The URL parser drops a scheme's default port (http://host:80 has port ''): read it from the text.
  const proxyPort = port(url.port || (/^[a-z0-9]+:\/\/[^/?#]*:(\d{1,5})\/?$/i.exec(text.trim())?.[1] ?? null));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!type || !host || !proxyPort || (url.pathname !== '' && url.pathname !== '/') || url.search) return null;
  if (type === 'mtproxy') {
    const secret = decoded(url.username);
    if (secret === undefined || !/^[0-9a-fA-F]{32,}$/.test(secret) || url.password) return null;
    return { type, host, port: proxyPort, secret: secret.toLowerCase() };
  }
  const username = decoded(url.username);
  const password = decoded(url.password);
  if (username === undefined || password === undefined) return null;
  const proxy: TelegramProxy = { type, host, port: proxyPort };
  if (username) proxy.username = username;
  if (password) proxy.password = password;
  return proxy;
}

/** The proxy as a URL with its password and MTProxy secret masked, for API answers. */
export function describeProxy(proxy: TelegramProxy | undefined): string | null {
  if (!proxy) return null;
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  if (proxy.type === 'mtproxy') return `mtproxy://***@${host}:${proxy.port}`;
  const credentials = proxy.username ? `${encodeURIComponent(proxy.username)}${proxy.password ? ':***' : ''}@` : '';
  return `${proxy.type}://${credentials}${host}:${proxy.port}`;
}

/** Why a proxy text is refused: a stable rule (the web apps translate it) and a sentence naming what to fix. */
export interface ProxyProblem {
  rule: 'proxy_format' | 'proxy_link' | 'proxy_scheme' | 'proxy_host' | 'proxy_port' | 'proxy_path' | 'proxy_secret' | 'proxy_escape';
  sentence: string;
}

/**
 * Why `text` is not a proxy this panel can use, as a sentence naming what to fix (for a text
 * parseProxyUrl refused).
 */
export function proxyProblem(text: string): string {
  return describeProxyProblem(text).sentence;
}

/** proxyProblem with its rule. */
export function describeProxyProblem(text: string): ProxyProblem {
  const example = 'socks5://127.0.0.1:1080 (also socks4://, http://, mtproxy://<secret>@host:port or a tg://proxy link)';
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    const written = /^[a-z0-9]+:\/\/[^/?#]*:(\d+)\/?$/i.exec(text.trim())?.[1];
    if (written !== undefined && !port(written)) return { rule: 'proxy_port', sentence: 'The proxy port must be a number from 1 to 65535.' };
    return { rule: 'proxy_format', sentence: `The proxy is not an address: write it as ${example}.` };
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme === 'tg' || url.hostname === 't.me') return { rule: 'proxy_link', sentence: 'The proxy link needs a server, a port and a secret of at least 32 hexadecimal characters.' };
  if (!SCHEMES[scheme]) return { rule: 'proxy_scheme', sentence: `The proxy type "${scheme}" is not supported: write it as ${example}.` };
  if (!url.hostname) return { rule: 'proxy_host', sentence: `The proxy has no host: write it as ${example}.` };
  if (!port(url.port) && !parseProxyUrl(text)) {
    return url.port === ''
      ? { rule: 'proxy_port', sentence: `The proxy has no port: add it after the host, as in ${scheme}://${url.hostname}:1080.` }
      : { rule: 'proxy_port', sentence: 'The proxy port must be a number from 1 to 65535.' };
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.search) return { rule: 'proxy_path', sentence: 'The proxy address must end after the port (no path or query).' };
  if (SCHEMES[scheme] === 'mtproxy') return { rule: 'proxy_secret', sentence: 'The MTProxy secret (before the @) must be at least 32 hexadecimal characters.' };
  return { rule: 'proxy_escape', sentence: 'The proxy user name or password holds a broken %-escape: write a literal % as %25.' };
}
