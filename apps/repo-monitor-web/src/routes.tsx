import { Navigate, RouteObject } from 'react-router';
import { hasPageStrings, loadPageStrings } from './i18n/setup';
import { LoginPage } from './routes/login/login-page';

const notFound = async () => ({ Component: (await import('./components/not-found')).NotFoundPage });

/**
 * The console's pages. Every page but the login is loaded on demand, so the login loads only what
 * it uses. The paths are also in apps/repo-monitor/src/app/console/console-routes.ts (the service
 * answers them with index.html): a new page goes in both. Any other path shows "page not found".
 */
export const routes: RouteObject[] = withPageStrings([
  { path: '/login', element: <LoginPage /> },
  { path: '/setup', lazy: async () => ({ Component: (await import('./routes/setup/setup-page')).SetupPage }) },
  {
    // The shell (navigation, header) loads with the first page behind the login, not with the login.
    lazy: async () => ({ Component: (await import('./components/authenticated-layout')).AuthenticatedLayout }),
    children: [
      { path: '/', element: <Navigate to="/dashboard" replace /> },
      { path: '/dashboard', lazy: async () => ({ Component: (await import('./routes/dashboard/dashboard-page')).DashboardPage }) },
      { path: '/repositories', lazy: async () => ({ Component: (await import('./routes/repositories/repositories-page')).RepositoriesPage }) },
      { path: '/repositories/:id', lazy: async () => ({ Component: (await import('./routes/repositories/repository-page')).RepositoryPage }) },
      { path: '/work-items', lazy: async () => ({ Component: (await import('./routes/work-items/work-items-page')).WorkItemsPage }) },
      { path: '/workflow-runs', lazy: async () => ({ Component: (await import('./routes/workflow-runs/workflow-runs-page')).WorkflowRunsPage }) },
      { path: '/security-alerts', lazy: async () => ({ Component: (await import('./routes/security-alerts/security-alerts-page')).SecurityAlertsPage }) },
      { path: '/events', lazy: async () => ({ Component: (await import('./routes/events/events-page')).EventsPage }) },
      { path: '/channels', lazy: async () => ({ Component: (await import('./routes/channels/channels-page')).ChannelsPage }) },
      { path: '/rules', lazy: async () => ({ Component: (await import('./routes/rules/rules-page')).RulesPage }) },
      { path: '/templates', lazy: async () => ({ Component: (await import('./routes/templates/templates-page')).TemplatesPage }) },
      { path: '/outbox', lazy: async () => ({ Component: (await import('./routes/outbox/outbox-page')).OutboxPage }) },
      { path: '/deliveries', lazy: async () => ({ Component: (await import('./routes/deliveries/deliveries-page')).DeliveriesPage }) },
      { path: '/recovered-deliveries', lazy: async () => ({ Component: (await import('./routes/recovered-deliveries/recovered-deliveries-page')).RecoveredDeliveriesPage }) },
      { path: '/releases', lazy: async () => ({ Component: (await import('./routes/releases/releases-page')).ReleasesPage }) },
      { path: '/github-app', lazy: async () => ({ Component: (await import('./routes/github-app/github-app-page')).GithubAppPage }) },
      { path: '/ai', lazy: async () => ({ Component: (await import('./routes/ai/ai-page')).AiPage }) },
      { path: '/settings', lazy: async () => ({ Component: (await import('./routes/settings/settings-page')).SettingsPage }) },
      { path: '/agent-access', lazy: async () => ({ Component: (await import('./routes/agent-access/agent-access-page')).AgentAccessPage }) },
      { path: '/prometheus', lazy: async () => ({ Component: (await import('./routes/prometheus/prometheus-page')).PrometheusPage }) },
      { path: '/audit-log', lazy: async () => ({ Component: (await import('./routes/audit-log/audit-log-page')).AuditLogPage }) },
      { path: '/account', lazy: async () => ({ Component: (await import('./routes/account/account-page')).AccountPage }) },
      { path: '/about', lazy: async () => ({ Component: (await import('./routes/about/about-page')).AboutPage }) },
      { path: '*', lazy: notFound },
    ],
  },
]);

/**
 * A route at /<folder> whose folder routes/<folder>/ has an i18n.ts loads those strings together with
 * its code (in parallel), so each page's text, English and Chinese, comes with the page and not in
 * the login's bundle. A new page needs nothing more than its i18n.ts and its route.
 */
function withPageStrings(list: RouteObject[]): RouteObject[] {
  return list.map((route) => {
    // A page's strings are its first path segment's folder: /repositories/:id loads routes/repositories/i18n.ts.
    const folder = route.path?.replace(/^\//, '').split('/')[0];
    const children = route.children ? withPageStrings(route.children) : undefined;
    const lazy = route.lazy;
    if (!folder || typeof lazy !== 'function' || !hasPageStrings(folder)) return children ? ({ ...route, children } as RouteObject) : route;
    return {
      ...route,
      ...(children ? { children } : {}),
      lazy: async () => (await Promise.all([lazy(), loadPageStrings(folder)]))[0],
    } as RouteObject;
  });
}
