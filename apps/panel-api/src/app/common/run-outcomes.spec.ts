import { englishText } from '@shared/panel-texts';
import { phaseDetailFields, runMessageFields } from './run-outcomes';

describe('the codes of a run\'s result message and phase detail', () => {
  it('codes an error the runner named, with its values as text', () => {
    const message = englishText('runMessage', 'telegram_flood_wait', { seconds: 37 });
    expect(runMessageFields({ message, success: false, failure_category: 'flood_wait' })).toEqual({ message_code: 'telegram_flood_wait', message_params: { seconds: '37' } });
  });

  it('codes the record of an interrupted run', () => {
    const message = englishText('runMessage', 'interrupted_replica_stopped', { replica: 'r-2', account: 'alice', due: '2026-01-01T08:00:00.000Z' });
    expect(message).toBe('Interrupted: replica r-2 stopped (its lease on alice expired) while running the run due at 2026-01-01T08:00:00.000Z');
    expect(runMessageFields({ message, success: false, failure_category: 'none' })).toEqual({
      message_code: 'interrupted_replica_stopped',
      message_params: { replica: 'r-2', account: 'alice', due: '2026-01-01T08:00:00.000Z' },
    });
  });

  it('never codes a bot\'s answer, even one that reads like a sentence of the runner', () => {
    const lookalike = 'The request was cancelled';
    expect(runMessageFields({ message: lookalike, success: true, failure_category: 'none' }).message_code).toBeNull();
    expect(runMessageFields({ message: lookalike, success: false, failure_category: 'bot_refused' }).message_code).toBeNull();
    expect(runMessageFields({ message: 'completed', success: true, failure_category: 'none' }).message_code).toBe('completed');
    expect(runMessageFields({ message: 'no answer from the bot', success: false, failure_category: 'unconfirmed' }).message_code).toBe('no_answer');
  });

  it('codes a phase detail, and leaves an unknown one uncoded', () => {
    expect(phaseDetailFields('retrying chat 2')).toEqual({ phase_detail_code: 'retrying', phase_detail_params: { step: 'chat 2' } });
    expect(phaseDetailFields(null)).toEqual({ phase_detail_code: null, phase_detail_params: {} });
    expect(phaseDetailFields('something else')).toEqual({ phase_detail_code: null, phase_detail_params: {} });
  });
});
