import { useTranslation } from 'react-i18next';
import { categoryLabel, runStateLabel } from './codes';

/** A flow log line as the API answers it: a runner-written one carries a code and its parameters. */
export interface FlowLogLine {
  message: string;
  step?: string | null;
  code?: string;
  params?: Record<string, string | number>;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Text the service writes about a run (flow log lines, their step labels, the run's result
 * message) in the page's language. A line carries a stable code and parameters beside its English
 * text; a code this version does not know, and older stored lines without one, show the text.
 */
export function useRunText() {
  const { t, i18n } = useTranslation();
  const known = (key: string) => i18n.exists(key);
  const verdictWord = (verdict: string | number | undefined) => t(`panel.verdict.${String(verdict)}`, { defaultValue: String(verdict ?? '') });

  /** A sentence of the service's catalogue by its code; undefined for a code this version does not know. */
  const coded = (section: 'runMessage' | 'phaseDetail', code: string | null | undefined, params: Record<string, string | number> = {}): string | undefined =>
    code && known(`panel.${section}.${code}`) ? t(`panel.${section}.${code}`, params) : undefined;

  /** An error's text in a flow log line's parameters (`error`, with `error_code` and `error.<name>` when the catalogue has it). */
  const errorText = (params: Record<string, string | number>): string => {
    const values = Object.fromEntries(Object.entries(params).filter(([name]) => name.startsWith('error.')).map(([name, value]) => [name.slice('error.'.length), value]));
    return coded('runMessage', params['error_code'] === undefined ? null : String(params['error_code']), values) ?? String(params['error'] ?? '');
  };

  const line = (entry: FlowLogLine): string => {
    const code = entry.code;
    const params = entry.params ?? {};
    if (code === 'run_error') return errorText(params);
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
        return t('runLog.step_retry', { ...params, error: errorText(params), category: categoryLabel(t, String(params['category'] ?? 'unknown')) });
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

  /**
   * A run's result message: the runner's own words and the errors it names by their code (the
   * catalogue's sentence), a bot's answer or an uncoded error as it is.
   */
  const message = (run: { message: string; message_code?: string | null; message_params?: Record<string, string> }): string =>
    upperFirst(coded('runMessage', run.message_code, run.message_params) ?? run.message);

  /** Whether `message` said the run's message in the page's words rather than as the service wrote it. */
  const translated = (run: { message_code?: string | null }): boolean => !!run.message_code && known(`panel.runMessage.${run.message_code}`);

  /** A failed run's error (the live status): by its code, or as it is. */
  const error = (run: { error: string | null; error_code?: string | null; error_params?: Record<string, string> }): string =>
    run.error === null ? '' : upperFirst(coded('runMessage', run.error_code, run.error_params) ?? run.error);

  /** What a running run is doing within its phase; the step label in it said in the page's words too. */
  const phaseDetail = (run: { phase_detail: string | null; phase_detail_code?: string | null; phase_detail_params?: Record<string, string> }): string => {
    if (!run.phase_detail) return '';
    const params = run.phase_detail_params ?? {};
    return coded('phaseDetail', run.phase_detail_code, params['step'] === undefined ? params : { ...params, step: step(params['step']) }) ?? run.phase_detail;
  };

  return { line, step, message, translated, error, phaseDetail };
}
