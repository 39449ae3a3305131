import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { serveWebApp } from '@shared/http-service';

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

/** Serves panel-web from `root` (see serveWebApp); false for an API-only build. */
export function serveWebUi(app: NestFastifyApplication, root: string | undefined): Promise<boolean> {
  return serveWebApp(app, root, WEB_UI_ROUTES);
}
