import { screen } from '@testing-library/react';
import { renderWithProviders } from '@shared/web-ui/testing';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../i18n/all';
import { FlowLogLine, useRunText } from './run-text';

const resources = { en, zh };

const LINES: FlowLogLine[] = [
  { message: 'sent: /checkin', code: 'sent_text', params: { text: '/checkin' }, step: 'chat 1 action 1' },
  { message: 'sent dice 🎲 (rolled 4)', code: 'sent_dice', params: { emoji: '🎲', value: 4 }, step: 'chat 1 action 2' },
  { message: 'verdict success: reply matched contains pattern "签到成功" (签到成功)', code: 'verdict', params: { verdict: 'success', reason: 'pattern_matched', edited: 0, mode: 'contains', pattern: '签到成功', text: '签到成功' }, step: 'chat 1' },
  { message: 'x (flood_wait); retrying from this step in 30 s, 2 retries left', code: 'step_retry', params: { error: 'FLOOD_WAIT_30', category: 'flood_wait', seconds: 30, retries: 2 }, step: 'action 3' },
  { message: 'run cancelled', code: 'run_interrupted', params: { state: 'cancelled' }, step: null },
  // A line stored before codes existed, and a code a newer service may send: the text as it is.
  { message: 'waiting 2.0 s before the action', step: 'chat 1 action 1' },
  { message: 'something new', code: 'a_future_code', params: {} },
];

function Lines({ messageCode }: { messageCode: string | null }) {
  const text = useRunText();
  return (
    <ul>
      {LINES.map((line, index) => (
        <li key={index}>{`${text.step(line.step)} | ${text.line(line)}`}</li>
      ))}
      <li>{text.message({ message: 'completed', message_code: messageCode })}</li>
      <li>{text.message({ message: 'Check-in OK, +5 points', message_code: null })}</li>
    </ul>
  );
}

describe('run text in the page language', () => {
  it('says coded lines, step labels and the run message in Chinese, and keeps uncoded text as it is', async () => {
    renderWithProviders(<Lines messageCode="completed" />, { resources, language: 'zh-CN' });
    const items = (await screen.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items).toEqual([
      '聊天 1，动作 1 | 已发送：/checkin',
      '聊天 1，动作 2 | 已发送骰子 🎲（掷出 4）',
      '聊天 1 | 判定：成功。回复匹配了规则“签到成功”。（签到成功）',
      '动作 3 | 频率限制：FLOOD_WAIT_30。30 秒后重试此步骤（剩余 2 次重试）',
      ' | 运行结束：已取消',
      '聊天 1，动作 1 | waiting 2.0 s before the action',
      ' | something new',
      '已完成',
      'Check-in OK, +5 points',
    ]);
  });

  it('says the same in English', async () => {
    renderWithProviders(<Lines messageCode="completed" />, { resources });
    const items = (await screen.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items.slice(0, 3)).toEqual(['chat 1, action 1 | Sent: /checkin', 'chat 1, action 2 | Sent the dice 🎲 (rolled 4)', 'chat 1 | Verdict: success. The answer matched the pattern "签到成功". (签到成功)']);
    expect(items[7]).toBe('Completed');
  });

  it('says an error the service named, a phase detail and a live error by their codes, with the English text kept for an unknown code', async () => {
    function Coded() {
      const text = useRunText();
      const flood = { error: 'Telegram asks to wait 30 s before the next request', error_code: 'telegram_flood_wait', 'error.seconds': 30 };
      return (
        <ul>
          <li>{text.line({ message: '', code: 'run_error', params: { error: 'No recent question in @bot', error_code: 'no_question', 'error.chat': '@bot' } })}</li>
          <li>{text.line({ message: '', code: 'run_error', params: { error: 'connect ECONNREFUSED 127.0.0.1:9' } })}</li>
          <li>{text.line({ message: '', code: 'step_retry', params: { ...flood, category: 'flood_wait', seconds: 30, retries: 1 } })}</li>
          <li>{text.message({ message: 'Interrupted: replica r-2 stopped …', message_code: 'interrupted_replica_stopped', message_params: { replica: 'r-2', account: 'alice', due: '2026-01-01T08:00:00.000Z' } })}</li>
          <li>{text.message({ message: 'As the service wrote it', message_code: 'a_future_code', message_params: {} })}</li>
          <li>{text.phaseDetail({ phase_detail: 'chat 1 action 2 (action 3) in @bot', phase_detail_code: 'action', phase_detail_params: { step: 'chat 1 action 2', action: '3', chat: '@bot' } })}</li>
          <li>{text.phaseDetail({ phase_detail: 'an older detail', phase_detail_code: null, phase_detail_params: {} })}</li>
          <li>{text.error({ error: 'The run took longer than its time limit', error_code: 'run_timeout', error_params: {} })}</li>
        </ul>
      );
    }
    renderWithProviders(<Coded />, { resources, language: 'zh-CN' });
    const items = (await screen.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items).toEqual([
      '@bot 中没有最近的问题',
      'connect ECONNREFUSED 127.0.0.1:9',
      '频率限制：Telegram 要求在下一次请求前等待 30 秒。30 秒后重试此步骤（剩余 1 次重试）',
      '已中断：副本 r-2 停止了（它对 alice 的租约已过期），当时正在执行 2026-01-01T08:00:00.000Z 到期的运行',
      'As the service wrote it',
      '聊天 1，动作 2（动作 3），在 @bot',
      'an older detail',
      '运行超过了时间限制',
    ]);
  });
});
