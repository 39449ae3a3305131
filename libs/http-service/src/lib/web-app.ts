import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webAppContentSecurityPolicy, WebAppPolicyOptions } from './security-headers';

export interface WebAppServeOptions {
  /**
   * Answer a GET for an unknown path from a browser (Accept: text/html) with the app's page and
   * status 404, so the app shows its own "page not found"; never under `servicePaths` (`/api`,
   * `/webhooks`...), whose unknown paths keep the service's JSON 404.
   */
  pageNotFound?: { servicePaths: readonly string[] };
}

/** Immutable for Vite's content-hashed files, revalidate for everything else (index.html, sw.js, manifest). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE = 'no-cache';

/**
 * Serves a built web app from `root` (dist/apps/<service>/web in the image): each file under it at
 * its path, and index.html for the app's own `routes` (Fastify patterns: `/events`, `/outbox/:id`),
 * so a reload or a shared link opens the page. Only those answer with the page: the service's other
 * paths (an unknown `/api/…` is still its JSON 404) keep their meaning. Does nothing and answers
 * false when the folder has no index.html (an API-only build).
 *
 * The page and its files carry the app's Content-Security-Policy, whose inline-script hashes are
 * computed here, once, from the index.html being served: a rebuilt page can never run under a
 * stale hash. (The service worker's script takes its policy from its own answer, hence the files too.)
 */
export async function serveWebApp(
  app: NestFastifyApplication,
  root: string | undefined,
  routes: readonly string[],
  policy: WebAppPolicyOptions = {},
  options: WebAppServeOptions = {},
): Promise<boolean> {
  if (!root || !existsSync(join(root, 'index.html'))) return false;
  const contentSecurityPolicy = webAppContentSecurityPolicy(readFileSync(join(root, 'index.html'), 'utf8'), policy);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per file found at start-up instead of a catch-all `/*`, which would swallow the
    // JSON 404 of unknown API paths.
    wildcard: false,
    index: false,
    // The app's routes below answer with index.html; the bare file path would be a second copy.
    globIgnore: ['index.html'],
    decorateReply: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (reply, path) => {
      void reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE).header('content-security-policy', contentSecurityPolicy);
    },
  });
  const fastify = app.getHttpAdapter().getInstance();
  for (const url of routes) {
    fastify.get(url, (_request, reply) => reply.header('cache-control', REVALIDATE_CACHE).header('content-security-policy', contentSecurityPolicy).sendFile('index.html'));
  }
  const servicePaths = options.pageNotFound?.servicePaths;
  if (servicePaths) {
    // A browser that opens an unknown page gets the app's own "page not found" (status 404), not the API's JSON.
    fastify.addHook('onRequest', (request, reply, done) => {
      const path = request.url.split('?')[0] ?? '';
      const unmatched = request.routeOptions.url === undefined;
      const wantsPage = (request.headers.accept ?? '').includes('text/html');
      const servicePath = servicePaths.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
      if (request.method !== 'GET' || !unmatched || !wantsPage || servicePath) return done();
      void reply.code(404).header('cache-control', REVALIDATE_CACHE).header('content-security-policy', contentSecurityPolicy).sendFile('index.html');
    });
  }
  return true;
}
