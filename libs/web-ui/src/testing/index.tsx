import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, RenderResult } from '@testing-library/react';
import { Resource } from 'i18next';
import { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { flushSync } from 'react-dom';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createI18n } from '../lib/i18n';
import { WebUiProvider } from '../lib/theme';

export interface RenderOptions {
  /** The app's strings (namespace `app`); defaults to none. */
  resources?: { en: Resource[string][string]; zh: Resource[string][string] };
  language?: 'en' | 'zh-CN';
  /** Route pattern the element is mounted at and the URL to open. */
  path?: string;
  url?: string;
  /** Extra routes (e.g. the login page a 401 sends the person to). */
  routes?: { path: string; element: ReactElement }[];
  queryClient?: QueryClient;
}

/**
 * Renders a component as the apps do: Mantine theme, modals, toasts, i18n, TanStack Query (no
 * retries) and a memory data router (so useBlocker and links work).
 */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}): RenderResult & { queryClient: QueryClient; router: ReturnType<typeof createMemoryRouter> } {
  const queryClient = options.queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const i18n = createI18n(options.resources ?? { en: {}, zh: {} }, options.language ?? 'en');
  const path = options.path ?? '/';
  const router = createMemoryRouter([{ path, element: ui }, ...(options.routes ?? [])], { initialEntries: [options.url ?? path] });
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <WebUiProvider>
          <RouterProvider router={router} flushSync={(update) => void flushSync(update)} />
        </WebUiProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...result, queryClient, router };
}

/** A JSON Response for a stubbed fetch. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
