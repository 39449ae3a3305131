import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The routes of panel-web (apps/panel-web/src/routes.tsx): these, and only these, answer with
 * index.html so a reload or a shared link opens the page. Everything else keeps its own answer:
 * `/api/…` (an unknown one is still the JSON 404), `/docs`, `/openapi.*`, `/health*`, `/readyz`,
 * `/metrics`.
 */
export const WEB_UI_ROUTES = [
  '/',
  '/login',
  '/dashboard',
  '/accounts',
  '/tasks',
  '/tasks/new',
  '/tasks/:name',
  '/tasks/:name/edit',
  '/hits',
  '/history',
  '/settings',
  '/profile',
  '/about',
] as const;

/** Immutable for Vite's content-hashed files, revalidate for everything else (index.html, sw.js, manifest). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE = 'no-cache';

/**
 * Serves the built web app from `root` (dist/apps/panel-api/web in the image): each file under it
 * at its path, and index.html for the UI's routes. Does nothing when the folder has no index.html
 * (an API-only build).
 */
export async function serveWebUi(app: NestFastifyApplication, root: string | undefined): Promise<boolean> {
  if (!root || !existsSync(join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per file found at start-up instead of a catch-all `/*`, which would swallow the
    // JSON 404 of unknown API paths.
    wildcard: false,
    index: false,
    // The UI's routes below answer with index.html; the bare file path would be a second copy.
    globIgnore: ['index.html'],
    decorateReply: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (reply, path) => {
      void reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
    },
  });
  const fastify = app.getHttpAdapter().getInstance();
  for (const url of WEB_UI_ROUTES) {
    fastify.get(url, (_request, reply) => reply.header('cache-control', REVALIDATE_CACHE).sendFile('index.html'));
  }
  return true;
}
