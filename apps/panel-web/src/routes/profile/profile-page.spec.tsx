import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { ProfilePage } from './profile-page';

const resources = { en, zh };
const ME = { username: 'admin', totp_enabled: false, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };

describe('ProfilePage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('puts each refusal on the field it concerns, in the page language, and drops it when that field is edited', async () => {
    fetchMock.mockImplementation(async (input) => {
      const request = input as Request;
      if (request.url.endsWith('/api/auth/username')) {
        const body = (await request.json()) as { current_password: string };
        return body.current_password === 'wrong'
          ? jsonResponse({ statusCode: 403, error: 'Forbidden', message: 'current_password is wrong', code: 'wrong_current_password' }, 403)
          : jsonResponse({ statusCode: 409, error: 'Conflict', message: 'That username is taken', code: 'username_taken' }, 409);
      }
      if (request.url.endsWith('/api/auth/password')) {
        return jsonResponse(
          {
            statusCode: 400,
            error: 'Bad Request',
            message: 'new_password must differ from current_password',
            code: 'validation_failed',
            fields: [{ field: 'new_password', rule: 'same_as_current', message: 'Choose a password other than the current one.' }],
          },
          400,
        );
      }
      return jsonResponse(ME);
    });
    renderWithProviders(<ProfilePage />, { resources, language: 'zh-CN', path: '/profile' });
    const newName = await screen.findByLabelText('新用户名', { exact: false });
    // The form knows the rule for a username: no request for one it would refuse.
    await userEvent.type(newName, 'bad name');
    expect(screen.getByText('最多 64 个字符，只能包含字母、数字和 _ . @ -（不能有空格）。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '修改用户名' })).toBeDisabled();
    await userEvent.clear(newName);
    await userEvent.type(newName, 'owner');
    const [namePassword, passwordCurrent] = screen.getAllByLabelText('当前密码', { exact: false });
    await userEvent.type(namePassword, 'wrong');
    await userEvent.click(screen.getByRole('button', { name: '修改用户名' }));
    expect(await screen.findByText('当前密码不正确。')).toBeInTheDocument();
    await userEvent.type(namePassword, '!');
    expect(screen.queryByText('当前密码不正确。')).not.toBeInTheDocument();
    await userEvent.clear(namePassword);
    await userEvent.type(namePassword, 'right one');
    await userEvent.click(screen.getByRole('button', { name: '修改用户名' }));
    expect(await screen.findByText('该用户名已被占用。')).toBeInTheDocument();

    // The rule both apps share (12 characters) and "not the current one" are checked before sending.
    const passwordCalls = () => fetchMock.mock.calls.filter(([input]) => (input as Request).url.endsWith('/api/auth/password')).length;
    const newPassword = screen.getByLabelText(/^新密码/);
    const repeat = screen.getByLabelText('再次输入新密码', { exact: false });
    expect(screen.getByText('至少 12 个字符')).toBeInTheDocument();
    await userEvent.type(passwordCurrent, 'the same password');
    await userEvent.type(newPassword, 'eleven char');
    await userEvent.type(repeat, 'eleven char');
    expect(screen.getByText('至少 12 个字符。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '修改密码' })).toBeDisabled();
    await userEvent.clear(newPassword);
    await userEvent.clear(repeat);
    await userEvent.type(newPassword, 'the same password');
    await userEvent.type(repeat, 'the same password');
    expect(screen.getByText('新密码与当前密码相同')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '修改密码' })).toBeDisabled();
    expect(passwordCalls()).toBe(0);
    // What only the service can tell goes on the field too, in the page language.
    await userEvent.clear(newPassword);
    await userEvent.clear(repeat);
    await userEvent.type(newPassword, 'a brand new password');
    await userEvent.type(repeat, 'a brand new password');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('这就是当前的值，请输入一个不同的值。')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/new_password|current_password|must differ/);
  });
});
