import { screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { AddAccountDialog } from './add-account-dialog';

const resources = { en, zh };

function serveSettings(apiId: number | null, hashSet: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      if (new URL(request.url).pathname === '/api/config/settings') return jsonResponse({ timezone: 'UTC', telegram_api_id: apiId, telegram_api_hash_set: hashSet });
      return jsonResponse({ statusCode: 404, error: 'Not Found', message: 'no such route' }, 404);
    }),
  );
}

const dialog = () => <AddAccountDialog opened method="phone" onMethod={() => undefined} onClose={() => undefined} />;

describe('AddAccountDialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('explains the missing api_id and api_hash, where to get them and where they go, instead of a login that must fail', async () => {
    serveSettings(null, false);
    renderWithProviders(dialog(), { resources });
    expect(await screen.findByText('First, the Telegram API credentials')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'my.telegram.org' }).getAttribute('href')).toBe('https://my.telegram.org/apps');
    expect(screen.getByRole('link', { name: 'Open the Telegram API settings' }).getAttribute('href')).toBe('/settings?tab=telegram');
    expect(screen.queryByRole('tab', { name: 'Phone code' })).toBeNull();
  });

  it('offers the login methods once the credentials are saved', async () => {
    serveSettings(12345, true);
    renderWithProviders(dialog(), { resources });
    expect(await screen.findByRole('tab', { name: en.accounts.byPhone })).toBeTruthy();
    expect(screen.queryByText('First, the Telegram API credentials')).toBeNull();
  });
});
