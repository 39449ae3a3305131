import { useTranslation } from 'react-i18next';
import { categoryLabel, runStateLabel } from './codes';

/** A flow log line as the API answers it: a runner-written one carries a code and its parameters. */
export interface FlowLogLine {
  message: string;
  step?: string | null;
  code?: string;
  params?: Record<string, string | number>;
}

/**
 * Text the service writes about a run (flow log lines, their step labels, the run's result
 * message) in the page's language. A line carries a stable code and parameters beside its English
 * text; a code this version does not know, and older stored lines without one, show the text.
 */
export function useRunText() {
  const { t, i18n } = useTranslation();
  const known = (key: string) => i18n.exists(key);
  const verdictWord = (verdict: string | number | undefined) => t(`runLog.verdicts.${String(verdict)}`, { defaultValue: String(verdict ?? '') });

  const line = (entry: FlowLogLine): string => {
    const code = entry.code;
    const params = entry.params ?? {};
    if (!code || !known(`runLog.${code}`) || typeof t(`runLog.${code}`, { returnObjects: true }) !== 'string') return entry.message;
    switch (code) {
      case 'sent_dice':
        return t(params['value'] === undefined ? 'runLog.sent_dice' : 'runLog.sent_dice_value', params);
      case 'reply':
        if (params['text'] !== undefined) return t('runLog.reply', params);
        return params['media'] !== undefined ? t('runLog.reply_media', params) : t('runLog.reply_empty');
      case 'verdict': {
        const reasonCode = String(params['reason'] ?? '');
        const reasonKey = reasonCode === 'pattern_matched' && params['edited'] === 1 ? 'pattern_matched_edited' : reasonCode;
        if (!known(`runLog.reasons.${reasonKey}`)) return entry.message;
        const reason = t(`runLog.reasons.${reasonKey}`, params);
        const values = { verdict: verdictWord(params['verdict']), reason, text: params['text'] };
        return t(params['text'] === undefined ? 'runLog.verdict' : 'runLog.verdict_text', values);
      }
      case 'step_retry':
        return t('runLog.step_retry', { ...params, category: categoryLabel(t, String(params['category'] ?? 'unknown')) });
      case 'run_ended_verdict':
        return t('runLog.run_ended_verdict', { verdict: verdictWord(params['verdict']) });
      case 'run_interrupted':
        return t('runLog.run_interrupted', { state: runStateLabel(t, String(params['state'] ?? '')) });
      default:
        return t(`runLog.${code}`, params);
    }
  };

  /** `chat 1 action 2`, `chat 1` and `action 3` (the runner's step labels) in the page's words. */
  const step = (label: string | null | undefined): string => {
    if (!label) return '';
    const both = /^chat (\d+) action (\d+)$/.exec(label);
    if (both) return t('runLog.step.chatAction', { chat: both[1], action: both[2] });
    const chat = /^chat (\d+)$/.exec(label);
    if (chat) return t('runLog.step.chat', { chat: chat[1] });
    const action = /^action (\d+)$/.exec(label);
    if (action) return t('runLog.step.action', { action: action[1] });
    return label;
  };

  /** A run's result message: the runner's own words by their code, a bot's answer or an error as it is. */
  const message = (run: { message: string; message_code?: string | null }): string =>
    run.message_code && known(`runLog.message.${run.message_code}`) ? t(`runLog.message.${run.message_code}`) : run.message;

  return { line, step, message };
}
