import { PasswordInput } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../testing';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiErrorFrom, errorMessage } from './api-error';
import { DataTable } from './data-table';
import { confirmAction } from './feedback';
import { createI18n, detectLanguage, keyPaths, languageReady } from './i18n';
import { webUiEn, webUiZh } from './i18n-resources';
import { safeNext } from './navigation';
import { ErrorState } from './states';
import { dayInZone, formatDateTime, nextDay, startOfDayInZone } from './time';

describe('i18n', () => {
  it('has the same keys in English and Chinese', () => {
    expect(keyPaths(webUiZh)).toEqual(keyPaths(webUiEn));
  });

  it('picks a saved language, else a Chinese browser gets Chinese, else English', () => {
    expect(detectLanguage({ getItem: () => 'zh-CN' }, ['en-US'])).toBe('zh-CN');
    expect(detectLanguage({ getItem: () => null }, ['zh-TW', 'en'])).toBe('zh-CN');
    expect(detectLanguage({ getItem: () => 'fr' }, ['de'])).toBe('en');
  });
});

describe('time', () => {
  it('formats in the configured zone, not the browser one', () => {
    expect(formatDateTime('2026-11-23T16:30:00Z', 'Asia/Shanghai')).toBe('2026-11-24 00:30:00');
    expect(dayInZone('2026-11-23T16:30:00Z', 'Asia/Shanghai')).toBe('2026-11-24');
    expect(formatDateTime(null, 'UTC')).toBe('—');
  });

  it('starts a picked day at midnight of the configured zone, across DST changes', () => {
    expect(startOfDayInZone('2026-11-24', 'Asia/Shanghai')).toBe('2026-11-23T16:00:00.000Z');
    expect(startOfDayInZone('2026-11-24', 'UTC')).toBe('2026-11-24T00:00:00.000Z');
    expect(startOfDayInZone('2026-03-29', 'Europe/Berlin')).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayInZone('2026-03-30', 'Europe/Berlin')).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDayInZone('2026-11-01', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDayInZone('2026-02-30', 'UTC')).toBeUndefined();
    expect(startOfDayInZone('yesterday', 'UTC')).toBeUndefined();
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});

describe('apiErrorFrom', () => {
  it('reads the message and Retry-After', () => {
    const error = apiErrorFrom(new Response('', { status: 429, headers: { 'retry-after': '42' } }), { statusCode: 429, error: 'Too Many Requests', message: 'Too many failed logins' });
    expect(error).toMatchObject({ status: 429, message: 'Too many failed logins', retryAfterSeconds: 42 });
  });

  it("reads panel-api's code", () => {
    const error = apiErrorFrom(new Response('', { status: 409 }), { statusCode: 409, error: 'Conflict', message: 'Task daily is already running', code: 'task_busy' });
    expect(error).toMatchObject({ status: 409, code: 'task_busy', message: 'Task daily is already running' });
    expect(errorMessage(error)).toBe('Task daily is already running');
    expect(errorMessage(error, (code) => (code === 'task_busy' ? 'busy' : undefined))).toBe('busy');
    expect(errorMessage(error, () => undefined)).toBe('Task daily is already running');
  });

  it("reads repo-monitor's coded body: the message and the error code", () => {
    const error = apiErrorFrom(new Response('', { status: 403, headers: { 'x-request-id': 'r1' } }), { error_code: 'csrf_failed', message: 'missing or wrong X-CSRF-Token header' });
    expect(error).toMatchObject({ status: 403, code: 'csrf_failed', message: 'missing or wrong X-CSRF-Token header', requestId: 'r1' });
  });
});

describe('safeNext', () => {
  it('keeps same-site paths and refuses other sites and the login itself', () => {
    expect(safeNext('/events?kind=push')).toBe('/events?kind=push');
    expect(safeNext('//evil.example')).toBe('/dashboard');
    expect(safeNext('/\\evil.example')).toBe('/dashboard');
    expect(safeNext('https://evil.example')).toBe('/dashboard');
    expect(safeNext('/login?next=/x')).toBe('/dashboard');
    expect(safeNext(null)).toBe('/dashboard');
  });
});

describe('ErrorState', () => {
  it('shows the service message as text and retries', async () => {
    const retry = vi.fn();
    renderWithProviders(<ErrorState error={new ApiError(400, '<b>bad</b> input')} onRetry={retry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('<b>bad</b> input');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalled();
  });

  it("shows the app's text for a known error code in the page's language, else the service message", () => {
    const resources = {
      en: { serverError: { task_busy: 'This task is already running.', validation_failed: 'Not valid: {{message}}' } },
      zh: { serverError: { task_busy: '该任务正在运行。', validation_failed: '请求无效：{{message}}' } },
    };
    const { unmount } = renderWithProviders(<ErrorState error={new ApiError(409, 'Task daily is already running', undefined, undefined, 'task_busy')} />, { resources, language: 'zh-CN' });
    expect(screen.getByRole('alert')).toHaveTextContent('该任务正在运行。');
    unmount();
    const second = renderWithProviders(<ErrorState error={new ApiError(400, 'name must be a string', undefined, undefined, 'validation_failed')} />, { resources, language: 'zh-CN' });
    expect(screen.getByRole('alert')).toHaveTextContent('请求无效：name must be a string');
    second.unmount();
    renderWithProviders(<ErrorState error={new ApiError(409, 'Backup running', undefined, undefined, 'backup_busy')} />, { resources, language: 'zh-CN' });
    expect(screen.getByRole('alert')).toHaveTextContent('Backup running');
  });
});

describe('field problems', () => {
  it('reads both services\' field lists, drops malformed entries and keeps at most 50', () => {
    const panel = apiErrorFrom(new Response(null, { status: 400 }), {
      statusCode: 400,
      error: 'Bad Request',
      message: 'x',
      code: 'validation_failed',
      fields: [{ field: 'ai_model', rule: 'too_long', max: 128, message: 'Use at most 128 characters.' }, { field: 1 }, 'junk', { field: 'a', rule: 'required', message: 'm', min: 'NaN' }],
    });
    expect(panel.fields).toEqual([
      { field: 'ai_model', rule: 'too_long', max: 128, message: 'Use at most 128 characters.' },
      { field: 'a', rule: 'required', message: 'm' },
    ]);
    const monitor = apiErrorFrom(new Response(null, { status: 400 }), {
      error_code: 'validation_failed',
      message: 'y',
      details: { fields: Array.from({ length: 80 }, (_, index) => ({ field: `f${index}`, rule: 'required', message: 'm' })) },
    });
    expect(monitor.fields).toHaveLength(50);
  });

  it('says what each field needs in the page\'s language (the app\'s rule, else the library\'s, else the service\'s sentence)', () => {
    const resources = { en: { fieldRules: { api_hash: 'Paste the API hash.' } }, zh: { fieldRules: { api_hash: '请粘贴 API hash。' } } };
    const error = new ApiError(400, 'telegram_api_hash must be 32 hexadecimal characters', undefined, undefined, 'validation_failed', undefined, [
      { field: 'telegram_api_hash', rule: 'api_hash', message: 'Paste the API hash from my.telegram.org.' },
      { field: 'ai_model', rule: 'too_long', max: 128, message: 'Use at most 128 characters.' },
      { field: 'odd', rule: 'something_new', message: 'A sentence of the service.' },
    ]);
    renderWithProviders(<ErrorState error={error} />, { resources, language: 'zh-CN' });
    expect(screen.getByRole('alert')).toHaveTextContent('请粘贴 API hash。 最多 128 个字符。 A sentence of the service.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('telegram_api_hash');
  });
});

describe('DataTable', () => {
  const rows = [
    { id: 'a', name: 'Alpha' },
    { id: 'b', name: 'Beta' },
  ];
  const columns = [{ key: 'name', header: 'Name', render: (row: { id: string; name: string }) => row.name }];

  it('shows rows and pages through the server total', async () => {
    const onPage = vi.fn();
    renderWithProviders(<DataTable caption="Things" columns={columns} rows={rows} rowKey={(row) => row.id} paging={{ kind: 'pages', page: 1, pageSize: 2, total: 5, onPage }} />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByText('5 in total')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it('shows the empty state and the error state', () => {
    const { unmount } = renderWithProviders(<DataTable caption="Things" columns={columns} rows={[]} rowKey={(row) => row.id} empty={<p>No things</p>} />);
    expect(screen.getByText('No things')).toBeInTheDocument();
    unmount();
    renderWithProviders(<DataTable caption="Things" columns={columns} rows={undefined} rowKey={(row) => row.id} error={new ApiError(500, 'boom')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('boom');
  });

  it('selects rows for bulk actions', async () => {
    function Harness() {
      const [selected, setSelected] = useState<Set<string>>(new Set());
      return (
        <>
          <DataTable caption="Things" columns={columns} rows={rows} rowKey={(row) => row.id} selection={{ selected, onChange: setSelected, label: (row) => `Select ${row.name}` }} />
          <output>{[...selected].join(',')}</output>
        </>
      );
    }
    renderWithProviders(<Harness />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Beta' }));
    expect(document.querySelector('output')?.textContent).toBe('b');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Things' }));
    expect(document.querySelector('output')?.textContent).toBe('a,b');
  });
});

describe('confirmAction', () => {
  it('resolves true on confirm and false on cancel', async () => {
    renderWithProviders(<p>page</p>);
    const first = confirmAction({ title: 'Delete?', message: 'Really', confirmLabel: 'Delete', cancelLabel: 'Keep' });
    // The dialog layer is a lazy chunk: its first load took 1.8-2.4 s on a busy 2-core machine.
    const dialog = await screen.findByRole('dialog', undefined, { timeout: 10_000 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect(first).resolves.toBe(true);
    const second = confirmAction({ title: 'Delete?', message: 'Really', confirmLabel: 'Delete', cancelLabel: 'Keep' });
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep' }));
    await expect(second).resolves.toBe(false);
  });
});

describe('createI18n with Chinese loaded on demand', () => {
  it('fetches the Chinese strings only for Chinese, before the language shows', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return { hello: '你好' };
    };
    const english = createI18n({ en: { hello: 'Hello' }, zh: load }, 'en');
    await languageReady(english);
    expect(english.t('hello')).toBe('Hello');
    expect(loads).toBe(0);
    await english.changeLanguage('zh-CN');
    expect(english.t('hello')).toBe('你好');
    expect(loads).toBe(1);

    const chinese = createI18n({ en: { hello: 'Hello' }, zh: load }, 'zh-CN');
    await languageReady(chinese);
    expect(chinese.t('hello')).toBe('你好');
  });
});

describe('WebUiProvider', () => {
  it("names a password field's show/hide button in the page's language", () => {
    renderWithProviders(<PasswordInput label="密码" />, { language: 'zh-CN' });
    expect(screen.getByRole('button', { name: '显示或隐藏密码' })).toBeInTheDocument();
  });
});
