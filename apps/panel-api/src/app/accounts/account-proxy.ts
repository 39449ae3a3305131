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
  const proxyPort = port(url.port);
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
