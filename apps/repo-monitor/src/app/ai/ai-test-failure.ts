import { AiFailureCode } from './ai-client';

/** What went wrong in a connectivity test, in five words a person can act on. */
export const AI_TEST_FAILURE_KINDS = ['unreachable', 'unauthorized', 'rate_limited', 'bad_response', 'timeout'] as const;
export type AiTestFailureKind = (typeof AI_TEST_FAILURE_KINDS)[number];

const KIND_OF: Record<Exclude<AiFailureCode, 'disabled' | 'not_configured'>, AiTestFailureKind> = {
  connection_failed: 'unreachable',
  auth_failed: 'unauthorized',
  rate_limited: 'rate_limited',
  server_error: 'bad_response',
  bad_request: 'bad_response',
  malformed_response: 'bad_response',
  empty_response: 'bad_response',
  timeout: 'timeout',
};

export interface ClassifiedAiTestFailure {
  kind: AiTestFailureKind;
  /** The HTTP status the endpoint answered, when it answered with one. */
  upstream_status: number | null;
  /** Our own sentence for the kind: never text from the endpoint's answer. */
  message: string;
}

/**
 * The connectivity test's answer for a failed call. The endpoint may be anything the admin typed,
 * and its error bodies may carry whatever it likes (a login page, a proxy's banner, reflected
 * input), so the answer carries the kind and the status only, never the endpoint's text.
 */
export function classifyAiTestFailure(code: AiFailureCode, upstreamStatus: number | undefined, timeoutMs: number): ClassifiedAiTestFailure {
  const kind: AiTestFailureKind = code === 'disabled' || code === 'not_configured' ? 'unauthorized' : KIND_OF[code];
  const status = typeof upstreamStatus === 'number' && Number.isInteger(upstreamStatus) ? upstreamStatus : null;
  const messages: Record<AiTestFailureKind, string> = {
    unreachable: 'the endpoint could not be reached (connection refused, name not found, or a TLS failure)',
    unauthorized: 'the endpoint refused the API key',
    rate_limited: 'the endpoint is limiting requests for this key; try again later',
    bad_response: 'the endpoint did not answer with a chat completion',
    timeout: `no answer within ${timeoutMs} ms`,
  };
  return { kind, upstream_status: status, message: status === null ? messages[kind] : `${messages[kind]} (HTTP ${status})` };
}
