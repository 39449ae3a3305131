import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError, WebUiProvider } from '@shared/web-ui';
import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { i18n } from './i18n/setup';
import { routes } from './routes';

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

export function App() {
  const queryClient = useMemo(makeQueryClient, []);
  const router = useMemo(() => createBrowserRouter(routes), []);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <WebUiProvider>
          <RouterProvider router={router} />
        </WebUiProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
