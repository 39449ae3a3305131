import { Navigate, RouteObject } from 'react-router';
import { LoginPage } from './routes/login/login-page';

const notBuiltYet = async () => ({ Component: (await import('./components/not-found')).NotFoundPage });

/**
 * The console's pages. Every page but the login is loaded on demand, so the login loads only what
 * it uses. The paths are also in apps/repo-monitor/src/app/console/console-routes.ts (the service
 * answers them with index.html): a new page goes in both. Pages not built yet show "page not found".
 */
export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/setup', lazy: async () => ({ Component: (await import('./routes/setup/setup-page')).SetupPage }) },
  {
    // The shell (navigation, header) loads with the first page behind the login, not with the login.
    lazy: async () => ({ Component: (await import('./components/authenticated-layout')).AuthenticatedLayout }),
    children: [
      { path: '/', element: <Navigate to="/dashboard" replace /> },
      { path: '/dashboard', lazy: async () => ({ Component: (await import('./routes/dashboard/dashboard-page')).DashboardPage }) },
      { path: '/repositories', lazy: notBuiltYet },
      { path: '/work-items', lazy: notBuiltYet },
      { path: '/workflow-runs', lazy: notBuiltYet },
      { path: '/security-alerts', lazy: notBuiltYet },
      { path: '/events', lazy: notBuiltYet },
      { path: '/channels', lazy: notBuiltYet },
      { path: '/outbox', lazy: notBuiltYet },
      { path: '/releases', lazy: notBuiltYet },
      { path: '/github-app', lazy: notBuiltYet },
      { path: '/ai', lazy: notBuiltYet },
      { path: '/settings', lazy: notBuiltYet },
      { path: '/agent-access', lazy: notBuiltYet },
      { path: '/prometheus', lazy: notBuiltYet },
      { path: '/audit-log', lazy: notBuiltYet },
      { path: '/account', lazy: notBuiltYet },
      { path: '/about', lazy: notBuiltYet },
      { path: '*', lazy: notBuiltYet },
    ],
  },
];
