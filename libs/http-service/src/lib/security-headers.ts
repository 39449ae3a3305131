import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The policy of every answer that is not a page: JSON, files, streams. Nothing it could carry may
 * run, load or be framed.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Private by default: API, OAuth, MCP and well-known answers carry the owner's data and stay out of every cache. */
export const NO_STORE = 'no-store';

/**
 * Set on every answer before the app sees the request (the lifecycle server does it), so error
 * answers, the 503s of a starting service and hijacked event streams carry them too. A route replaces
 * one by setting its own header: a page its CSP, a static file its cache lifetime.
 */
export const BASE_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', API_CONTENT_SECURITY_POLICY],
  ['x-frame-options', 'DENY'],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cache-control', NO_STORE],
];

/** One year; sent only on answers to HTTPS requests (a browser ignores it over plain HTTP anyway). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** `sha256-…` sources for each inline `<script>` (one without `src`) of a page, in order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(match[1])) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export interface WebAppPolicyOptions {
  /** Origins a form of the app may post to besides its own (repo-monitor: GitHub, for the App manifest flow). */
  formActions?: readonly string[];
}

/**
 * The Content-Security-Policy of a web app's pages: scripts from the service only, plus the page's
 * inline scripts by hash (the colour-scheme script that runs before the first paint). Styles allow
 * 'unsafe-inline': Mantine writes its CSS variables into `<style>` elements at run time and
 * components set `style` attributes (React props), neither of which a hash or nonce can cover; a
 * style cannot run code, and scripts stay locked to 'self'.
 */
export function webAppContentSecurityPolicy(html: string, options: WebAppPolicyOptions = {}): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(html)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    ["form-action 'self'", ...(options.formActions ?? [])].join(' '),
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Swagger UI at /docs: its scripts are files under /docs, its page has inline `<style>` blocks and
 * its icons are data: images; "Try it out" calls the API on the same origin.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The headers that depend on the request as Fastify reads it: HSTS when the request came over
 * HTTPS (TLS to the service, or `X-Forwarded-Proto: https` from a proxy the trustProxy setting
 * trusts), and Swagger UI's own policy under `docsPrefix`.
 */
export function installSecurityHeaders(fastify: FastifyInstance, options: { docsPrefix?: string } = {}): void {
  const docs = options.docsPrefix ?? '/docs';
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    const path = request.url.split('?')[0];
    if (path === docs || path.startsWith(`${docs}/`)) reply.raw.setHeader('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
    done();
  });
}
