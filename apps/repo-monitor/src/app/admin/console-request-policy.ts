import type { FastifyReply, FastifyRequest } from 'fastify';
import { MonitorErrorBody } from '../common/monitor-error';
import { isPlainHost } from '../common/request-origin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CONSOLE_API_PREFIX = '/api/v1/';

/** What the policy needs of a request. */
export interface ConsoleRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The Host, or X-Forwarded-Host from a trusted proxy (Fastify decides). */
  host: string;
}

export interface ConsoleRefusal {
  status: 403 | 415;
  body: MonitorErrorBody;
}

function header(request: ConsoleRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser says the request comes from another site. `Sec-Fetch-Site` (sent by every
 * current browser) is decisive when present: only `same-origin` and `none` (typed by the user) pass.
 * Without it, an `Origin` must name this host: the Host the request reached or the public base URL.
 */
async function isCrossSite(request: ConsoleRequest, publicBaseUrl: () => Promise<string | undefined>): Promise<boolean> {
  const site = header(request, 'sec-fetch-site')?.trim().toLowerCase();
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = header(request, 'origin')?.trim();
  if (origin === undefined) return false;
  const originHost = hostOf(origin);
  if (!originHost) return true;
  if (isPlainHost(request.host) && originHost === hostOf(`http://${request.host}`)) return false;
  const base = await publicBaseUrl();
  return !(base && originHost === hostOf(base));
}

/** Whether the body is JSON: `application/json` (any parameters), or no body at all. */
function isJsonOrEmpty(request: ConsoleRequest): boolean {
  const contentType = header(request, 'content-type');
  if (contentType !== undefined) return contentType.split(';')[0].trim().toLowerCase() === 'application/json';
  const length = header(request, 'content-length');
  return header(request, 'transfer-encoding') === undefined && (length === undefined || length.trim() === '0');
}

/**
 * The rules for writes to the console API (`/api/v1/...`), checked before the body is read:
 * refused with 403 when a browser says the request is cross-site, and with 415 unless the body is
 * `application/json` (or empty). A page on another site can make a browser send a form or
 * text/plain POST without asking anyone, never a cross-site application/json one.
 */
export async function consoleRequestRefusal(
  request: ConsoleRequest,
  publicBaseUrl: () => Promise<string | undefined>,
): Promise<ConsoleRefusal | undefined> {
  if (SAFE_METHODS.has(request.method.toUpperCase()) || !request.url.startsWith(CONSOLE_API_PREFIX)) return undefined;
  if (await isCrossSite(request, publicBaseUrl)) {
    return {
      status: 403,
      body: { error_code: 'csrf_failed', message: 'cross-site request refused: the console API only answers pages of its own origin' },
    };
  }
  if (!isJsonOrEmpty(request)) {
    return { status: 415, body: { error_code: 'validation_failed', message: 'the console API accepts only application/json request bodies' } };
  }
  return undefined;
}

/**
 * A Fastify onRequest hook applying consoleRequestRefusal. Callback style, so the requests it does
 * not concern (reads, and everything outside the console API, webhooks included) pass without a promise.
 */
export function consoleRequestHook(publicBaseUrl: () => Promise<string | undefined>) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    if (SAFE_METHODS.has(request.method.toUpperCase()) || !request.url.startsWith(CONSOLE_API_PREFIX)) return done();
    consoleRequestRefusal(request, publicBaseUrl).then(
      (refusal) => {
        if (!refusal) return done();
        // Answering from the hook: Fastify stops here, so done() is not called.
        void reply.status(refusal.status).header('content-type', 'application/json; charset=utf-8').send(refusal.body);
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  };
}
