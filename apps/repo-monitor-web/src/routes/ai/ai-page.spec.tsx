import { act, fireEvent, screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { AiPage } from './ai-page';

const resources = { en, zh };

describe('AiPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('keeps an unsaved edit of the connection while another tab is looked at', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
      if (url.pathname === '/api/v1/ai/config') {
        return jsonResponse({
          enabled: true,
          api_key_set: true,
          base_url: 'https://api.example.com/v1',
          model: 'model-a',
          timeout: '60s',
          max_tokens: 1024,
          retries: 1,
          digest_enabled: false,
          triage_enabled: false,
          release_summary_enabled: false,
          code_review_enabled: false,
          failure_analysis_enabled: false,
          locked_fields: [],
        });
      }
      if (url.pathname === '/api/v1/ai/review-settings') return jsonResponse({ post_comment: false });
      return jsonResponse({ page: 1, per_page: 20, total: 0, items: [] });
    });
    renderWithProviders(<AiPage />, { resources, path: '/ai' });
    const model = await screen.findByRole('textbox', { name: 'Model' });
    fireEvent.change(model, { target: { value: 'model-b' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: 'Reviews' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    });
    expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('model-b');
  });
});
