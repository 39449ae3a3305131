import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { pickerAccount } from './chat-picker';
import { TaskEditor } from './task-editor-page';
import { emptyTask } from './task-form';

const resources = { en, zh };
const WALK_TIMEOUT_MS = 60_000;

const account = (name: string, extra: Record<string, unknown> = {}) => ({ account_name: name, has_session: true, needs_relogin: false, status: 'connected', ...extra });
const CHATS = [
  { id: '-1001000000001', title: 'Daily check-in group', kind: 'group', username: 'daily_checkin' },
  { id: '424242', title: 'Check-in bot', kind: 'user', username: 'CheckinBot' },
  { id: '-1001000000002', title: 'News', kind: 'channel' },
];

describe('the task editor’s chat picker', () => {
  const chatQueries: string[] = [];
  let chatsResponse: (q: string) => Response;
  let accounts: unknown[];
  beforeAll(() => {
    if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  });
  beforeEach(() => {
    chatQueries.length = 0;
    accounts = [account('alice'), account('bob', { needs_relogin: true, status: 'invalid' })];
    chatsResponse = (q) => {
      const chats = CHATS.filter((chat) => !q || chat.title.toLowerCase().includes(q.toLowerCase()) || (chat.username ?? '').toLowerCase().includes(q.toLowerCase()));
      return jsonResponse({ account_name: 'alice', chats, truncated: false });
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const url = new URL(request.url);
        if (url.pathname === '/api/accounts') return jsonResponse({ accounts, total: accounts.length });
        if (url.pathname === '/api/config/settings') return jsonResponse({ timezone: 'UTC', ai_model: null, ai_api_key_set: false });
        if (url.pathname === '/api/accounts/alice/chats') {
          chatQueries.push(url.searchParams.get('q') ?? '');
          return chatsResponse(url.searchParams.get('q') ?? '');
        }
        return jsonResponse({ statusCode: 404, error: 'Not Found', message: 'no such route' }, 404);
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const openChats = async (user: ReturnType<typeof userEvent.setup>, chosen: string[], language: 'en' | 'zh-CN' = 'en') => {
    const initial = { ...emptyTask(), name: 'daily', accounts: chosen, execution_mode: 'listen' as const };
    renderWithProviders(<TaskEditor initial={initial} />, { resources, path: '/tasks/new', url: '/tasks/new', language });
    await user.click(await screen.findByRole('button', { name: language === 'en' ? 'Next' : zh.tasks.editor.next }));
  };

  it('picks the first connected account, or says why there is none', () => {
    const list = [account('bob', { needs_relogin: true }), account('alice'), account('carol', { has_session: false })] as unknown as Parameters<typeof pickerAccount>[0];
    expect(pickerAccount(list, ['bob', 'alice'], false)).toEqual({ name: 'alice' });
    expect(pickerAccount(list, ['bob', 'carol'], false)).toEqual({ reason: 'offline' });
    expect(pickerAccount(list, [], false)).toEqual({ reason: 'none_chosen' });
    expect(pickerAccount(list, [], true)).toEqual({ name: 'alice' });
  });

  it('searches the account’s chats and fills the chat id and label from the one chosen', async () => {
    const user = userEvent.setup();
    await openChats(user, ['bob', 'alice']);
    const picker = await screen.findByLabelText('Choose from the chats of alice', { selector: 'input' });
    await user.type(picker, 'check');
    await waitFor(() => expect(chatQueries).toContain('check'));
    await user.click(await screen.findByRole('option', { name: /Check-in bot/, hidden: true }));
    expect(screen.getByRole('textbox', { name: /^Chat/ })).toHaveValue('424242');
    expect(screen.getByRole('textbox', { name: 'Label (optional)' })).toHaveValue('Check-in bot');
    // Free entry stays: a chat not in the list is typed by hand.
    const chatId = screen.getByRole('textbox', { name: /^Chat/ });
    await user.clear(chatId);
    await user.type(chatId, '@elsewhere');
    expect(chatId).toHaveValue('@elsewhere');
  }, WALK_TIMEOUT_MS);

  it('says in a sentence when the list cannot be read, and leaves the chat id to be typed', async () => {
    chatsResponse = () => jsonResponse({ statusCode: 502, error: 'Bad Gateway', message: 'Telegram could not be reached', code: 'telegram_unavailable' }, 502);
    const user = userEvent.setup();
    await openChats(user, ['alice']);
    expect(await screen.findByText(/The chat list of alice cannot be read now, so type the chat id below\./)).toBeInTheDocument();
    expect(screen.queryByLabelText('Choose from the chats of alice', { selector: 'input' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Chat/ }), '-1001000000001');
    expect(screen.getByRole('textbox', { name: /^Chat/ })).toHaveValue('-1001000000001');
  }, WALK_TIMEOUT_MS);

  it('offers no list for an account that is not signed in, in Chinese too', async () => {
    const user = userEvent.setup();
    await openChats(user, ['bob'], 'zh-CN');
    expect(await screen.findByText(zh.tasks.editor.pickChatOffline)).toBeInTheDocument();
    expect(chatQueries).toEqual([]);
  }, WALK_TIMEOUT_MS);
});
