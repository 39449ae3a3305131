/**
 * The pages of the browser console (apps/repo-monitor-web/src/routes.tsx): these, and only these,
 * answer with the console's index.html, so a reload or a shared link opens the page. Every other
 * path keeps its meaning: `/api/v1/…` (an unknown one is the JSON 404), `/webhooks`, `/oauth`,
 * `/.well-known`, `/mcp`, `/metrics` (Prometheus; the console's metrics page is `/prometheus`),
 * `/docs`, `/openapi.*`, `/healthz`, `/readyz`. A page added to the console is added here too.
 */
export const CONSOLE_ROUTES = [
  '/',
  '/setup',
  '/login',
  '/dashboard',
  '/repositories',
  '/repositories/:id',
  '/work-items',
  '/workflow-runs',
  '/security-alerts',
  '/events',
  '/channels',
  '/channels/:id',
  '/rules',
  '/outbox',
  '/outbox/:id',
  '/deliveries',
  '/recovered-deliveries',
  '/releases',
  '/github-app',
  '/ai',
  '/ai/:section',
  '/ai/reviews/:id',
  '/settings',
  '/agent-access',
  '/prometheus',
  '/audit-log',
  '/account',
  '/about',
] as const;

/**
 * The service's own paths: an unknown path under these is the JSON 404 even for a browser; any
 * other unknown path a browser opens shows the console's "page not found" (status 404).
 */
export const SERVICE_PATHS = ['/api', '/webhooks', '/oauth', '/.well-known', '/mcp', '/metrics', '/docs', '/openapi.json', '/openapi.yaml', '/healthz', '/readyz', '/assets'] as const;
