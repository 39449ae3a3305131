import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { RunDrawer } from './run-drawer';

describe('RunDrawer', () => {
  let runResponse: () => Response;
  let statusResponse: () => Response;
  let historyResponse: () => Response;
  beforeEach(() => {
    statusResponse = () => jsonResponse({ state: 'idle', runs: [] });
    historyResponse = () => jsonResponse({ history: [] });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const path = new URL(request.url).pathname;
        if (path === '/api/accounts') return jsonResponse({ accounts: [], total: 0 });
        if (path === '/api/sign-tasks/nightly/run' && request.method === 'POST') return runResponse();
        if (path === '/api/sign-tasks/nightly/run/status') return statusResponse();
        if (path === '/api/sign-tasks/nightly/history') return historyResponse();
        if (path === '/api/sign-tasks/nightly') return jsonResponse({ name: 'nightly', account_names: ['*'], enabled: true });
        return jsonResponse({ statusCode: 404, error: 'Not Found', message: 'no such route' }, 404);
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the reason a run did not start in the drawer until the next try', async () => {
    runResponse = () => jsonResponse({ statusCode: 400, error: 'Bad Request', message: 'Task nightly has no account to run for' }, 400);
    renderWithProviders(<RunDrawer name="nightly" onClose={() => undefined} />, { resources: { en, zh } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The run did not start');
    expect(alert).toHaveTextContent('Task nightly has no account to run for');

    runResponse = () => jsonResponse({ runs: [{ account_name: 'alice' }] });
    await user.click(screen.getByRole('button', { name: 'Run now' }));
    await vi.waitFor(() => expect(screen.queryByText('The run did not start')).not.toBeInTheDocument());
  });

  it('says the phase detail, a failed run\'s error and a recent run\'s message in Chinese, with the service\'s English folded away', async () => {
    const run = (fields: Record<string, unknown>) => ({
      run_id: 'r1',
      task_name: 'nightly',
      account_name: 'alice',
      success: null,
      error: null,
      error_code: null,
      error_params: {},
      failure_category: 'none',
      phase: null,
      phase_detail: null,
      phase_detail_code: null,
      phase_detail_params: {},
      attempts: 1,
      logs: [],
      ...fields,
    });
    statusResponse = () =>
      jsonResponse({
        state: 'running',
        runs: [
          run({ state: 'running', phase: 'waiting_lock', phase_detail: 'another run of alice is in progress', phase_detail_code: 'waiting_lock', phase_detail_params: { account: 'alice' } }),
          run({
            run_id: 'r2',
            state: 'finished',
            success: false,
            failure_category: 'button_not_found',
            error: 'No recent message in @bot has a button "Go"',
            error_code: 'no_message_with_button',
            error_params: { chat: '@bot', text: 'Go' },
          }),
        ],
      });
    historyResponse = () =>
      jsonResponse({
        history: [
          {
            run_id: 'r0',
            account_name: 'alice',
            trigger: 'schedule',
            state: 'interrupted',
            success: false,
            failure_category: 'none',
            message: 'Interrupted: replica r-2 stopped (its lease on alice expired) while running the run due at 2026-01-01T08:00:00.000Z',
            message_code: 'interrupted_replica_stopped',
            message_params: { replica: 'r-2', account: 'alice', due: '2026-01-01T08:00:00.000Z' },
            finished_at: '2026-01-01T08:00:05.000Z',
            flow_log: [],
          },
        ],
      });
    renderWithProviders(<RunDrawer name="nightly" onClose={() => undefined} />, { resources: { en, zh }, language: 'zh-CN' });
    expect(await screen.findByText(/等待账号空闲 · alice 的另一次运行正在进行/)).toBeInTheDocument();
    expect(await screen.findByText('找不到按钮：@bot 中最近的消息里没有按钮“Go”')).toBeInTheDocument();
    expect(await screen.findByText('已中断：副本 r-2 停止了（它对 alice 的租约已过期），当时正在执行 2026-01-01T08:00:00.000Z 到期的运行')).toBeInTheDocument();
    expect(screen.getAllByText('服务记录的原文')).toHaveLength(2);
    expect(screen.getByText(/^Interrupted: replica r-2 stopped/)).toBeInTheDocument();
    expect(screen.queryByText(/another run of alice/)).not.toBeInTheDocument();
  });
});
