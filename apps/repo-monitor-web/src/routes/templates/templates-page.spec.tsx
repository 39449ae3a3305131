import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { TemplatesPage } from './templates-page';

const resources = { en, zh };

describe('TemplatesPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('starts from the default message, previews each edit through the service, and saves the template', async () => {
    const previews: Array<Record<string, unknown>> = [];
    const saved: unknown[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/notification-channels') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 'c1', name: 'Ops', kind: 'telegram', route: null }] });
      if (url.pathname === '/api/v1/notification-rules') return jsonResponse({ total: 0, items: [] });
      if (url.pathname === '/api/v1/notification-templates' && request.method === 'GET') return jsonResponse({ total: 0, items: [] });
      if (url.pathname === '/api/v1/notification-templates' && request.method === 'PUT') {
        const body = (await request.json()) as Record<string, unknown>;
        saved.push(body);
        return jsonResponse({ id: 't1', channel_id: 'c1', rule_id: null, event_kind: '*', body: body['body'], created_at: '', updated_at: '' });
      }
      const body = (await request.json()) as Record<string, unknown>;
      previews.push(body);
      const template = typeof body['body'] === 'string' ? body['body'] : '<b>{{heading}}</b>';
      return jsonResponse({
        event: { id: 3, kind: 'issues.opened', title: 'Issue #3 opened: Crash', repository: 'acme/api', occurred_at: '2026-11-01T00:00:00Z' },
        channel_kind: 'telegram',
        format: 'telegram_html',
        limit: 4000,
        whole_message: true,
        template,
        default_template: '<b>{{heading}}</b>',
        rendered: template.replace('{{heading}}', '[acme/api] Issue #3 opened: Crash').replace('{{title}}', 'Issue #3 opened: Crash'),
        length: 10,
        truncated: false,
        variables: ['heading', 'title'],
      });
    });
    renderWithProviders(<TemplatesPage />, { resources, path: '/templates' });
    expect(await screen.findByText('No templates yet')).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Ops (Telegram)' });
    fireEvent.change(screen.getByRole('combobox', { name: /Channel or rule/ }), { target: { value: 'channel:c1' } });
    expect(await screen.findByText('<b>[acme/api] Issue #3 opened: Crash</b>', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/On the latest event of this kind: Issue #3 opened: Crash/)).toBeInTheDocument();
    const editor = screen.getByRole('textbox', { name: /^Template/ });
    await waitFor(() => expect(editor).toHaveValue('<b>{{heading}}</b>'));
    fireEvent.change(editor, { target: { value: '<i>{{title}}</i>' } });
    expect(await screen.findByText('<i>Issue #3 opened: Crash</i>', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(previews.at(-1)).toEqual({ channel_id: 'c1', event_kind: '*', body: '<i>{{title}}</i>' });
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(saved).toEqual([{ channel_id: 'c1', event_kind: '*', body: '<i>{{title}}</i>' }]));
  });

  it('edits the title of a push channel apart from its message, and shows a refused template on the field in Chinese', async () => {
    const previews: Array<Record<string, unknown>> = [];
    const saved: unknown[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/v1/notification-channels') return jsonResponse({ page: 1, per_page: 100, total: 1, items: [{ id: 'c2', name: 'Phone', kind: 'ntfy', route: null }] });
      if (url.pathname === '/api/v1/notification-rules') return jsonResponse({ total: 0, items: [] });
      if (url.pathname === '/api/v1/notification-templates' && request.method === 'GET') return jsonResponse({ total: 0, items: [] });
      if (url.pathname === '/api/v1/notification-templates' && request.method === 'PUT') {
        saved.push(await request.json());
        const message = 'the template is longer than 500 characters';
        return jsonResponse({ error_code: 'validation_failed', message, details: { field: 'body', fields: [{ field: 'body', rule: 'template_too_long', max: 500, message }] } }, 400);
      }
      const body = (await request.json()) as Record<string, unknown>;
      previews.push(body);
      // The message and the title have different defaults: the editor must start from the part's own.
      const title = body['part'] === 'title';
      const fallback = title ? '{{heading}}' : '{{#body}}{{body}}{{/body}}';
      const template = typeof body['body'] === 'string' ? body['body'] : fallback;
      return jsonResponse({
        event: null,
        part: title ? 'title' : 'message',
        channel_kind: 'ntfy',
        format: 'plain',
        limit: 250,
        whole_message: false,
        template,
        default_template: fallback,
        rendered: template.replace('{{heading}}', '[acme/api] Issue #3 opened: Crash').replace('{{repository}}', 'acme/api'),
        length: 10,
        truncated: false,
        variables: ['heading', 'repository'],
      });
    });
    renderWithProviders(<TemplatesPage />, { resources, path: '/templates', language: 'zh-CN' });
    await screen.findByRole('option', { name: 'Phone (ntfy)' });
    fireEvent.change(screen.getByRole('combobox', { name: /渠道或规则/ }), { target: { value: 'channel:c2' } });
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^模板/ })).toHaveValue('{{#body}}{{body}}{{/body}}'));
    fireEvent.change(await screen.findByRole('combobox', { name: /^部分/ }), { target: { value: 'title' } });
    const editor = await screen.findByRole('textbox', { name: /^标题模板/ });
    await waitFor(() => expect(editor).toHaveValue('{{heading}}'));
    expect(previews.at(-1)).toEqual({ channel_id: 'c2', part: 'title', event_kind: '*' });
    fireEvent.change(editor, { target: { value: '{{repository}} new' } });
    expect(await screen.findByText('acme/api new', {}, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存模板' }));
    await waitFor(() => expect(saved).toEqual([{ channel_id: 'c2', part: 'title', event_kind: '*', body: '{{repository}} new' }]));
    expect(await screen.findByText('模板太长：最多 500 个字符。')).toBeInTheDocument();
    expect(editor).toHaveAttribute('aria-invalid', 'true');
  });
});
