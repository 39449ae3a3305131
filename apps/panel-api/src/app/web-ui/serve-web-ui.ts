import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { serveWebApp, webAppContentSecurityPolicy } from '@shared/http-service';
import type { FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
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

/** Paths whose 404 stays the service's JSON, whoever asks: the API and the service's own documents. */
const SERVICE_PATHS = /^\/(api|docs|openapi|health|healthz|readyz|metrics|assets)(\/|\.|$)/;

/** A person's browser opening a page (a mistyped or stale link), as opposed to a program asking the API. */
function isPageNavigation(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  return request.method === 'GET' && (request.headers.accept ?? '').includes('text/html') && !SERVICE_PATHS.test(path) && !/\.[a-z0-9]+$/i.test(path);
}

/**
 * Serves panel-web from `root` (see serveWebApp); false for an API-only build. A browser that opens a
 * path that is no page gets the app (still with status 404), which shows its own "page not found"
 * instead of the service's JSON.
 */
export async function serveWebUi(app: NestFastifyApplication, root: string | undefined): Promise<boolean> {
  const served = await serveWebApp(app, root, WEB_UI_ROUTES);
  if (!served || !root) return served;
  const page = readFileSync(join(root, 'index.html'), 'utf8');
  const contentSecurityPolicy = webAppContentSecurityPolicy(page);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 404 || !isPageNavigation(request)) return payload;
      void reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', contentSecurityPolicy);
      return page;
    });
  return true;
}
