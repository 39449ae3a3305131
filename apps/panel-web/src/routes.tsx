import { Center, Loader } from '@mantine/core';
import { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, RouteObject } from 'react-router';
import { addPageStrings, PageStrings } from './i18n/setup';
import { LoginPage } from './routes/login/login-page';

/** What shows while the first page's code loads (the router renders this until its lazy routes resolve). */
function StartingUp() {
  const { t } = useTranslation('ui');
  return (
    <Center mih="100dvh">
      <Loader size="md" aria-label={t('loading')} role="status" />
    </Center>
  );
}

/** A page's code and its strings, loaded together; the strings are in before the page renders. */
function withStrings(strings: () => Promise<PageStrings>, component: () => Promise<ComponentType>) {
  return async () => {
    const [text, Component] = await Promise.all([strings(), component()]);
    addPageStrings(text);
    return { Component };
  };
}

/** Every page but the login is loaded on demand, so the login and dashboard load only what they use. */
export const routes: RouteObject[] = [
  {
    HydrateFallback: StartingUp,
    children: [
      { path: '/login', element: <LoginPage /> },
      {
        // The shell (navigation, header) loads with the first page behind the login, not with the login.
        lazy: async () => ({ Component: (await import('./components/authenticated-layout')).AuthenticatedLayout }),
        children: [
          { path: '/', element: <Navigate to="/dashboard" replace /> },
          { path: '/dashboard', lazy: async () => ({ Component: (await import('./routes/dashboard/dashboard-page')).DashboardPage }) },
          { path: '/accounts', lazy: withStrings(() => import('./routes/accounts/strings'), async () => (await import('./routes/accounts/accounts-page')).AccountsPage) },
          { path: '/tasks', lazy: withStrings(() => import('./routes/tasks/strings'), async () => (await import('./routes/tasks/tasks-page')).TasksPage) },
          { path: '/tasks/new', lazy: withStrings(() => import('./routes/tasks/strings'), async () => (await import('./routes/tasks/task-editor-page')).TaskEditorPage) },
          { path: '/tasks/:name', lazy: withStrings(() => import('./routes/tasks/strings'), async () => (await import('./routes/tasks/task-editor-page')).TaskEditorPage) },
          { path: '/hits', lazy: withStrings(() => import('./routes/hits/strings'), async () => (await import('./routes/hits/hits-page')).HitsPage) },
          { path: '/history', lazy: withStrings(() => import('./routes/history/strings'), async () => (await import('./routes/history/history-page')).HistoryPage) },
          { path: '/settings', lazy: withStrings(() => import('./routes/settings/strings'), async () => (await import('./routes/settings/settings-page')).SettingsPage) },
          { path: '/profile', lazy: withStrings(() => import('./routes/profile/strings'), async () => (await import('./routes/profile/profile-page')).ProfilePage) },
          { path: '/about', lazy: withStrings(() => import('./routes/about/strings'), async () => (await import('./routes/about/about-page')).AboutPage) },
          { path: '/system', lazy: withStrings(() => import('./routes/about/strings'), async () => (await import('./routes/about/about-page')).SystemStatusPage) },
          { path: '*', lazy: async () => ({ Component: (await import('./components/not-found')).NotFoundPage }) },
        ],
      },
    ],
  },
];
