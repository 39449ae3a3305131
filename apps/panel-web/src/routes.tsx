import { Navigate, RouteObject } from 'react-router';
import { AuthenticatedLayout } from './components/authenticated-layout';
import { LoginPage } from './routes/login/login-page';
import { NotFoundPage } from './components/not-found';

/** Every page but the login is loaded on demand, so the login and dashboard load only what they use. */
export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  {
    element: <AuthenticatedLayout />,
    children: [
      { path: '/', element: <Navigate to="/dashboard" replace /> },
      { path: '/dashboard', lazy: async () => ({ Component: (await import('./routes/dashboard/dashboard-page')).DashboardPage }) },
      { path: '/history', lazy: async () => ({ Component: (await import('./routes/history/history-page')).HistoryPage }) },
      { path: '/about', lazy: async () => ({ Component: (await import('./routes/about/about-page')).AboutPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

