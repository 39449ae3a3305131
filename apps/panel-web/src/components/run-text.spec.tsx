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
});
