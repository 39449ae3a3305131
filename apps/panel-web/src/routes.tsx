import { Navigate, RouteObject } from 'react-router';
import { LoginPage } from './routes/login/login-page';

/** Every page but the login is loaded on demand, so the login and dashboard load only what they use. */
export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  {
    // The shell (navigation, header) loads with the first page behind the login, not with the login.
    lazy: async () => ({ Component: (await import('./components/authenticated-layout')).AuthenticatedLayout }),
    children: [
      { path: '/', element: <Navigate to="/dashboard" replace /> },
      { path: '/dashboard', lazy: async () => ({ Component: (await import('./routes/dashboard/dashboard-page')).DashboardPage }) },
      { path: '/history', lazy: async () => ({ Component: (await import('./routes/history/history-page')).HistoryPage }) },
      { path: '/profile', lazy: async () => ({ Component: (await import('./routes/profile/profile-page')).ProfilePage }) },
      { path: '/about', lazy: async () => ({ Component: (await import('./routes/about/about-page')).AboutPage }) },
      { path: '*', lazy: async () => ({ Component: (await import('./components/not-found')).NotFoundPage }) },
    ],
  },
];

