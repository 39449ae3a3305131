/**
 * What became of one delivery attempt, in the terms the outbox needs:
 * - `sent`: the receiver accepted it;
 * - `retryable`: try again later (5xx, 408, 429, network errors, timeouts);
 * - `permanent`: trying again cannot help (other 4xx, a bad URL, a refused target, a redirect).
 */
export type DeliveryOutcome = 'sent' | 'retryable' | 'permanent';

/** Short machine-readable reasons, suitable for an outbox `last_error_code` column. */
export type DeliveryErrorCode =
  | 'http_error'
  | 'rate_limited'
  | 'timeout'
  | 'network_error'
  | 'invalid_url'
  | 'private_target_refused'
  | 'redirect_refused'
  | 'dns_failed'
  | 'rejected_by_receiver';

export interface DeliveryResult {
  outcome: DeliveryOutcome;
  /** HTTP status of the last response, when there was one. */
  status?: number;
  errorCode?: DeliveryErrorCode;
  /** Human-readable reason; never contains a token or secret. */
  message?: string;
  /** From `Retry-After` (or Telegram's `retry_after`), capped at {@link MAX_RETRY_AFTER_SECONDS}. */
  retryAfterSeconds?: number;
  /** Number of HTTP attempts this call made (in-process retries included). */
  attempts: number;
  durationMs: number;
  /** The first 1 KiB of the response body, for diagnostics. */
  responseSnippet?: string;
}

/** `Retry-After` is honoured up to one hour (repo-monitor-details.md, Notifications). */
export const MAX_RETRY_AFTER_SECONDS = 3600;

/** How a status code is treated: 2xx sent; 408, 429 and 5xx retryable; everything else permanent. */
export function classifyHttpStatus(status: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 408 || status === 429 || status >= 500) return 'retryable';
  return 'permanent';
}

/**
 * Parses a `Retry-After` header (delta seconds or an HTTP date) into whole seconds,
 * capped at {@link MAX_RETRY_AFTER_SECONDS}; undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  let seconds: number;
  if (/^\d+$/.test(trimmed)) {
    seconds = Number(trimmed);
  } else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  return capRetryAfter(seconds);
}

export function capRetryAfter(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) return 0;
  return Math.min(Math.ceil(seconds), MAX_RETRY_AFTER_SECONDS);
}

/** Turns an error thrown by fetch into an outcome: timeouts and network failures are retryable. */
export function describeFetchError(error: unknown): { errorCode: DeliveryErrorCode; message: string } {
  // No instanceof: fetch's errors (DOMException, undici errors) may come from another realm.
  const field = (value: unknown, key: string): string | undefined =>
    value !== null && typeof value === 'object' && key in value ? String((value as Record<string, unknown>)[key]) : undefined;
  const name = field(error, 'name');
  if (name === 'TimeoutError' || name === 'AbortError') return { errorCode: 'timeout', message: 'request timed out' };
  const cause = error !== null && typeof error === 'object' && 'cause' in error ? (error as { cause: unknown }).cause : undefined;
  const code = field(cause, 'code') ?? field(error, 'code');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { errorCode: 'dns_failed', message: `host could not be resolved (${code})` };
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { errorCode: 'timeout', message: `request timed out (${code})` };
  }
  const detail = code ?? field(cause, 'message') ?? field(error, 'message') ?? String(error);
  return { errorCode: 'network_error', message: `network error: ${detail}` };
}

/** Bytes kept of an answer that is only shown (error snippets). */
export const RESPONSE_SNIPPET_LIMIT_BYTES = 1024;
/** Bytes read of an answer that must be parsed (Bot API, Bark, ServerChan JSON); longer ones are not valid answers. */
export const RESPONSE_JSON_LIMIT_BYTES = 64 * 1024;

/**
 * Reads at most `limitBytes` of a response body and cancels the rest, so a receiver that answers
 * with a huge or endless body costs neither memory nor time. `truncated` says whether more followed.
 */
export async function readBodyPrefix(response: Response, limitBytes: number): Promise<{ text: string; truncated: boolean }> {
  const body = response.body;
  if (!body) return { text: '', truncated: false };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let kept = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limitBytes - kept;
      if (value.byteLength > room) {
        // One byte past the limit proves there is more; an answer of exactly the limit is complete.
        text += decoder.decode(value.subarray(0, room), { stream: true });
        kept = limitBytes;
        truncated = true;
        break;
      }
      kept += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } catch {
    // A body that fails midway keeps what arrived.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return { text, truncated };
}

export async function readSnippet(response: Response, limit = RESPONSE_SNIPPET_LIMIT_BYTES): Promise<string> {
  try {
    return (await readBodyPrefix(response, limit)).text;
  } catch {
    return '';
  }
}
