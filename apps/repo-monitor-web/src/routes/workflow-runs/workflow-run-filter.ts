/** Run statuses GitHub reports (https://docs.github.com/en/rest/actions/workflow-runs). */
export const RUN_STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'] as const;
/** Run conclusions GitHub reports. */
export const RUN_CONCLUSIONS = ['success', 'failure', 'cancelled', 'timed_out', 'action_required', 'startup_failure', 'neutral', 'skipped', 'stale'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type RunConclusion = (typeof RUN_CONCLUSIONS)[number];
export const RUNS_PER_PAGE = 25;

/** The workflow runs page's filters, as kept in the URL. */
export interface WorkflowRunFilter {
  page: number;
  /** Text in the workflow name, branch or commit SHA. */
  q: string;
  status: RunStatus | '';
  conclusion: RunConclusion | '';
  repositoryId: number | null;
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value && (values as readonly string[]).includes(value) ? (value as T) : '';
}

export function runFilterFromParams(params: URLSearchParams): WorkflowRunFilter {
  const page = Number(params.get('page'));
  const repositoryId = Number(params.get('repository'));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    q: (params.get('q') ?? '').trim().slice(0, 200),
    status: oneOf(RUN_STATUSES, params.get('status')),
    conclusion: oneOf(RUN_CONCLUSIONS, params.get('conclusion')),
    repositoryId: Number.isInteger(repositoryId) && repositoryId >= 1 && repositoryId <= 2_147_483_647 ? repositoryId : null,
  };
}

export function runFilterToParams(filter: WorkflowRunFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.status) params.set('status', filter.status);
  if (filter.conclusion) params.set('conclusion', filter.conclusion);
  if (filter.repositoryId) params.set('repository', String(filter.repositoryId));
  if (filter.page > 1) params.set('page', String(filter.page));
  return params;
}

export function isRunFiltered(filter: WorkflowRunFilter): boolean {
  return Boolean(filter.q || filter.status || filter.conclusion || filter.repositoryId);
}

export function runQuery(filter: WorkflowRunFilter) {
  return {
    page: filter.page,
    per_page: RUNS_PER_PAGE,
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.conclusion ? { conclusion: filter.conclusion } : {}),
    ...(filter.repositoryId ? { repository_id: filter.repositoryId } : {}),
  };
}
