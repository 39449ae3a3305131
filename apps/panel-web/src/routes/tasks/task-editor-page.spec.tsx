import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { TaskEditor, TaskEditorPage } from './task-editor-page';
import { emptyAction, emptyChat, emptyTask } from './task-form';

const resources = { en, zh };

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** These walk the whole editor with real typing: slow on a loaded machine, hence their own time-out. */
const WALK_TIMEOUT_MS = 60_000;

describe('TaskEditorPage', () => {
  const calls: Call[] = [];
  let saveResponse: () => Response;
  beforeAll(() => {
    // Mantine's autosizing Textarea listens for font loads; jsdom has no document.fonts.
    if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  });
  beforeEach(() => {
    calls.length = 0;
    saveResponse = () => jsonResponse({}, 201);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const url = new URL(request.url);
        const text = request.method === 'GET' ? '' : await request.text();
        calls.push({ method: request.method, path: url.pathname, body: text ? JSON.parse(text) : undefined });
        if (url.pathname === '/api/accounts') return jsonResponse({ accounts: [], total: 0 });
        if (url.pathname === '/api/config/settings') return jsonResponse({ timezone: 'UTC', ai_model: null, ai_api_key_set: false });
        if (url.pathname === '/api/sign-tasks/schedule-preview')
          return jsonResponse({
            time_zone: 'Asia/Shanghai',
            cron: '0 30 7 * * *',
            runs: [0, 1, 2, 3, 4].map((day) => ({ fires_at: `2026-12-0${day + 1}T23:30:00.000Z`, latest_start: `2026-12-0${day + 1}T23:30:00.000Z` })),
          });
        if (url.pathname === '/api/sign-tasks' && request.method === 'POST') return saveResponse();
        return jsonResponse({ statusCode: 404, error: 'Not Found', message: 'no such route' }, 404);
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const render = () =>
    renderWithProviders(<TaskEditorPage />, { resources, path: '/tasks/new', url: '/tasks/new', routes: [{ path: '/tasks', element: <p>task list</p> }] });

  async function fillThroughChats(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText(/^Name/), 'daily check-in');
    await user.click(screen.getByLabelText('Every account (also accounts added later)'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const when = await screen.findByLabelText(/^When/);
    await user.clear(when);
    await user.type(when, '07:30');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByRole('textbox', { name: /^Chat/ }), '@checkin_bot');
    await user.type(screen.getByLabelText('Text to send'), '/checkin');
    await user.click(screen.getByRole('button', { name: 'Next' }));
  }

  it('keeps a step until its fields are valid, previews the schedule from the service, and saves the task', async () => {
    const user = userEvent.setup();
    const { router } = render();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one account')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Name/), 'daily check-in');
    await user.click(screen.getByLabelText('Every account (also accounts added later)'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const when = await screen.findByLabelText(/^When/);
    await user.clear(when);
    await user.type(when, '07:30');
    // Asked once the typing settles, with the schedule fields only.
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/api/sign-tasks/schedule-preview').map((call) => call.body)).toContainEqual({ execution_mode: 'fixed', sign_at: '07:30', random_seconds: 0, count: 5 }),
    );
    expect(calls.some((call) => (call.body as { sign_at?: string } | undefined)?.sign_at === '07:3')).toBe(false);
    // 23:30 UTC is 07:30 the next day in the time zone the service answers with.
    expect(await screen.findByText('2026-12-02 07:30:00')).toBeInTheDocument();
    expect(screen.getByText('Next runs (Asia/Shanghai)')).toBeInTheDocument();

    await user.clear(when);
    await user.type(when, 'soon');
    expect(await screen.findByText('Fix the schedule to see the next runs.')).toBeInTheDocument();
    await user.clear(when);
    await user.type(when, '07:30');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await user.type(await screen.findByRole('textbox', { name: /^Chat/ }), '@checkin_bot');
    await user.selectOptions(screen.getByLabelText('Type'), '3');
    await user.type(screen.getByLabelText('Button text'), 'Check in');
    await user.click(screen.getByRole('button', { name: 'Add action' }));
    await user.type(screen.getAllByLabelText('Text to send')[0], 'thanks');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Save task' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/tasks'));
    const save = calls.find((call) => call.method === 'POST' && call.path === '/api/sign-tasks');
    expect(save?.body).toEqual({
      name: 'daily check-in',
      account_names: ['*'],
      execution_mode: 'fixed',
      sign_at: '07:30',
      random_seconds: 0,
      retry_count: 3,
      enabled: true,
      notify_on_failure: true,
      notify_on_success: false,
      chats: [{ chat_id: '@checkin_bot', actions: [{ action: 3, text: 'Check in' }, { action: 1, text: 'thanks' }] }],
    });
  }, WALK_TIMEOUT_MS);

  it('shows the service\'s 400 on the field it names, in words, and goes back to that step', async () => {
    const user = userEvent.setup();
    saveResponse = () =>
      jsonResponse(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: 'sign_at never fires (no date in the next 8 years matches it, e.g. 31 February); property x should not exist',
          code: 'validation_failed',
          fields: [
            { field: 'sign_at', rule: 'schedule_never', message: 'This schedule never runs.' },
            { field: 'x', rule: 'unknown_field', message: 'This field is not part of this form; reload the page.' },
          ],
        },
        400,
      );
    render();
    await fillThroughChats(user);
    await user.click(await screen.findByRole('button', { name: 'Save task' }));
    expect(await screen.findByText('This schedule never runs (no date matches it, such as 31 February); change the day or month.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^When/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('This field is not part of this form; reload the page.')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/sign_at|should not exist/);
  }, WALK_TIMEOUT_MS);

  it('still places an older service\'s 400 message on its field', async () => {
    const user = userEvent.setup();
    saveResponse = () =>
      jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'sign_at never fires (no date in the next 8 years matches it, e.g. 31 February); property x should not exist' }, 400);
    render();
    await fillThroughChats(user);
    await user.click(await screen.findByRole('button', { name: 'Save task' }));
    expect(await screen.findByText('sign_at never fires (no date in the next 8 years matches it, e.g. 31 February)')).toBeInTheDocument();
    expect(screen.getByLabelText(/^When/)).toHaveAttribute('aria-invalid', 'true');
  }, WALK_TIMEOUT_MS);

  it('leaves out the schedule step and the run options for a listen task', async () => {
    const user = userEvent.setup();
    render();
    await user.type(await screen.findByLabelText(/^Name/), 'watch prices');
    await user.click(screen.getByLabelText('Every account (also accounts added later)'));
    await user.click(screen.getByLabelText('Listen for keywords and react'));
    expect(screen.queryByText('Schedule')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // Straight from the basics to the chats and their listen rules.
    expect(await screen.findByRole('heading', { name: 'Chats and listen rules' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^When/)).not.toBeInTheDocument();
  }, WALK_TIMEOUT_MS);

  it('asks before leaving with unsaved changes', async () => {
    const user = userEvent.setup();
    const { router } = render();
    await user.type(await screen.findByLabelText(/^Name/), 'half done');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(await screen.findByText('Leave without saving?')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/tasks/new');
  });

  it('keeps a saved task\'s name, reviews chats, actions and next runs, and warns of AI actions without a model', async () => {
    const user = userEvent.setup();
    const initial = {
      ...emptyTask(),
      name: 'daily',
      all_accounts: true,
      sign_at: '07:30',
      chats: [{ ...emptyChat('fixed'), chat_id: '@checkin_bot', actions: [{ ...emptyAction(1), text: '/checkin' }, { ...emptyAction(5), ai_prompt: 'solve it' }] }],
    };
    renderWithProviders(<TaskEditor initial={initial} original="daily" />, { resources, path: '/tasks/:name', url: '/tasks/daily' });
    const name = await screen.findByLabelText(/^Name/);
    expect(name).toHaveAttribute('readonly');
    expect(screen.getByText(/to rename it, clone it in the task list/)).toBeInTheDocument();
    for (let step = 0; step < 3; step++) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/This task uses AI actions, but no AI model is set up/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the AI settings' })).toHaveAttribute('href', '/settings?tab=ai');
    expect(screen.getByText('Send text → AI: answer a calculation', { exact: false })).toBeInTheDocument();
    expect(await screen.findByText('Next runs (Asia/Shanghai)')).toBeInTheDocument();
    expect(screen.getByText(/Every day at 07:30/)).toBeInTheDocument();
  }, WALK_TIMEOUT_MS);
});
