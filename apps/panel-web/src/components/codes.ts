import type { TFunction } from 'i18next';

/**
 * Codes the API answers with (failure categories, run triggers, run states) as words of the page's
 * language. A code this version does not know yet is shown as it is rather than hidden.
 */
export function categoryLabel(t: TFunction, code: string): string {
  return t(`panel.category.${code}`, { defaultValue: code });
}

export function triggerLabel(t: TFunction, code: string): string {
  return t(`codes.trigger.${code}`, { defaultValue: code });
}

export function runStateLabel(t: TFunction, code: string): string {
  return t(`codes.runState.${code}`, { defaultValue: code });
}

/** A scheduled job: the scheduler's own jobs by what they do; a sign job by its id (`sign-{account}-{task}`). */
export function jobLabel(t: TFunction, job: { id: string; type: 'sign' | 'system' }): string {
  return job.type === 'system' ? t(`codes.job.${job.id}`, { defaultValue: job.id }) : job.id;
}

const CHECK_CODES = ['OK', 'ACCOUNT_NOT_FOUND', 'ACCOUNT_SESSION_INVALID', 'CLIENT_INIT_FAILED', 'TIMEOUT', 'CONNECTION_ERROR', 'STORAGE_PERMISSION_DENIED', 'FLOOD_WAIT', 'STATUS_CHECK_FAILED'];

/** The result code of a session check or a keep-alive (`OK`, `FLOOD_WAIT`, …) in words; an unknown one as "other problem". */
export function checkCodeLabel(t: TFunction, code: string): string {
  return CHECK_CODES.includes(code) ? t(`codes.check.${code}`) : t('codes.check.other');
}
