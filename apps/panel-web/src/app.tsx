import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createI18n, languageReady, WebUiProvider } from '@shared/web-ui';
import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from '@shared/web-ui';
import { en } from './i18n/en';
import { routes } from './routes';

// English is bundled; the Chinese strings are fetched only when Chinese is the language.
const i18n = createI18n({ en, zh: () => import('./i18n/zh').then((module) => module.zh) });

/** Resolves when the strings of the language shown first are loaded (main.tsx renders after it). */
export const translationsReady = languageReady(i18n);

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
