import { act, fireEvent, screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { AiPage, DigestsTab } from './ai-page';

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

  it('names digests and why the template was used in the page\'s language, on the day the service counts in', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'Asia/Shanghai' });
      return jsonResponse({
        page: 1,
        per_page: 20,
        total: 1,
        items: [
          {
            id: 1,
            period: 'daily',
            period_start: '2026-11-26T17:00:00Z',
            period_end: '2026-11-27T17:00:00Z',
            source: 'template',
            fallback_reason: 'timeout',
            title: 'Daily digest 2026-11-28',
            body: 'Daily digest 2026-11-28\nEvents: 3',
            created_at: '2026-11-27T17:00:01Z',
          },
        ],
      });
    });
    renderWithProviders(<DigestsTab />, { resources, path: '/ai', language: 'zh-CN' });
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: '每日摘要 2026-11-28' }));
    });
    expect(await screen.findByText('使用模板的原因：AI 未能及时回答')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('Daily digest 2026');
  });
});
