/**
 * Workflow run conclusions that count as failed: a notification of the failure (and `recovered` at
 * the next success), the failed-runs metric and the digest's count all use this one list.
 */
export const FAILED_RUN_CONCLUSIONS: readonly string[] = ['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure'];

const FAILED = new Set(FAILED_RUN_CONCLUSIONS);

export function isFailedRunConclusion(conclusion: string | null | undefined): boolean {
  return conclusion !== null && conclusion !== undefined && FAILED.has(conclusion);
}
