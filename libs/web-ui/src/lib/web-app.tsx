import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { flushSync } from 'react-dom';
import { createBrowserRouter, RouteObject, RouterProvider } from 'react-router';
import { ApiError } from './api-error';
import { WebUiProvider } from './theme';

/** The server-state cache both web apps use. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: true,
        // A 4xx will not change by asking again; network trouble and 5xx get two more tries.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

/** A web app's root: its translations, the query cache, the theme and layers, and its routes. */
export function WebApp({ i18n, routes }: { i18n: I18n; routes: RouteObject[] }) {
  const queryClient = useMemo(makeQueryClient, []);
  const router = useMemo(() => createBrowserRouter(routes), [routes]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <WebUiProvider>
          {/* flushSync: a navigation can render synchronously when asked to (useUrlParams does). This is what
              react-router/dom's RouterProvider adds; that entry is not used because Vitest then loads
              two copies of react-router (CommonJS and ES module) whose contexts differ. */}
          <RouterProvider router={router} flushSync={(update) => void flushSync(update)} />
        </WebUiProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
