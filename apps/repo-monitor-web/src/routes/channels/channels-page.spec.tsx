import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { ChannelsPage } from './channels-page';

const resources = { en, zh };

describe('ChannelsPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('says a refused channel name on the name field in Chinese, and forgets it once the name is edited', async () => {
    const posted: unknown[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/system/settings') return jsonResponse({ time_zone: 'UTC' });
      if (url.pathname === '/api/v1/notification-channels' && request.method === 'POST') {
        posted.push(await request.json());
        const message = 'a channel with this name exists';
        return jsonResponse({ error_code: 'conflict', message, details: { field: 'name', rule: 'taken', fields: [{ field: 'name', rule: 'taken', message }] } }, 409);
      }
      return jsonResponse({ page: 1, per_page: 24, total: 0, items: [] });
    });
    renderWithProviders(<ChannelsPage />, { resources, path: '/channels', language: 'zh-CN' });
    await userEvent.click((await screen.findAllByRole('button', { name: '添加渠道' }))[0]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(screen.getByRole('combobox', { name: /^类型/ }), { target: { value: 'http_webhook' } });
    const name = screen.getByRole('textbox', { name: /^名称/ });
    fireEvent.change(name, { target: { value: 'Receiver' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^接收地址/ }), { target: { value: 'https://hooks.example.com/x' } });
    await userEvent.click(screen.getByRole('button', { name: '创建渠道' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(await screen.findByText('这个名称已被使用，请换一个。')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(dialog).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'Receiver 2' } });
    await waitFor(() => expect(screen.queryByText('这个名称已被使用，请换一个。')).not.toBeInTheDocument());
  });
});
