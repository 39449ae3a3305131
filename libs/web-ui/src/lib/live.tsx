import { Badge } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backoffSeconds, readSse, SseMessage } from './sse';

export type LiveStatus = { state: 'connecting' } | { state: 'live' } | { state: 'offline'; retryInSeconds: number };

export interface EventStreamOptions {
  url: string;
  /** Request headers for each connection attempt (the bearer token). */
  headers: () => Record<string, string> | undefined;
  onMessage: (message: SseMessage) => void;
  /** A 401: the token is gone or revoked; the stream stops until the component re-mounts. */
  onUnauthorized?: () => void;
  /**
   * A stream opened again after the last one ended or failed: events sent in between were missed,
   * so the page reads again what they would have changed.
   */
  onReconnect?: () => void;
  enabled?: boolean;
}

/**
 * Why the service ended a stream (`event: close`, data `{"reason": …}`) after which the client
 * reconnects at once rather than after the backoff: `lagging` (it read too slowly and was dropped;
 * a new stream starts afresh), `token_revoked` and `token_expired` (the new attempt gets the 401
 * that ends the session). After `shutdown` or a network error the backoff applies.
 */
const RECONNECT_AT_ONCE = new Set(['lagging', 'token_revoked', 'token_expired']);

/** The reason of an `event: close` message, if it is one. */
export function closeReasonOf(message: SseMessage): string | undefined {
  if (message.event !== 'close') return undefined;
  try {
    const reason = (JSON.parse(message.data) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? reason : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps an SSE stream open with fetch, reconnecting with backoff 1 → 30 s (at once after the
 * service's `event: close` for a reason in RECONNECT_AT_ONCE); reports live/offline.
 */
export function useEventStream({ url, headers, onMessage, onUnauthorized, onReconnect, enabled = true }: EventStreamOptions): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>({ state: 'connecting' });
  const callbacks = useRef({ headers, onMessage, onUnauthorized, onReconnect });
  callbacks.current = { headers, onMessage, onUnauthorized, onReconnect };
  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    let attempt = 0;
    let opened = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      setStatus({ state: 'connecting' });
      let closeReason: string | undefined;
      readSse(url, {
        headers: callbacks.current.headers(),
        signal: controller.signal,
        onOpen: () => {
          attempt = 0;
          setStatus({ state: 'live' });
          if (opened) callbacks.current.onReconnect?.();
          opened = true;
        },
        onMessage: (message) => {
          closeReason = closeReasonOf(message) ?? closeReason;
          callbacks.current.onMessage(message);
        },
      }).then(
        () => {
          if (closeReason !== undefined && RECONNECT_AT_ONCE.has(closeReason) && !controller.signal.aborted) {
            timer = setTimeout(connect, 0);
            return;
          }
          retry();
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof Response && error.status === 401) {
            setStatus({ state: 'offline', retryInSeconds: 0 });
            callbacks.current.onUnauthorized?.();
            return;
          }
          retry();
        },
      );
    };
    const retry = () => {
      if (controller.signal.aborted) return;
      const seconds = backoffSeconds(attempt);
      attempt += 1;
      setStatus({ state: 'offline', retryInSeconds: seconds });
      timer = setTimeout(connect, seconds * 1000);
    };
    connect();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [url, enabled]);
  return status;
}

export function LiveBadge({ status }: { status: LiveStatus }) {
  const { t } = useTranslation('ui');
  const color = status.state === 'live' ? 'green' : status.state === 'connecting' ? 'yellow' : 'gray';
  const label = status.state === 'offline' ? t('live.offline', { seconds: status.retryInSeconds }) : t(`live.${status.state}`);
  return (
    <Badge color={color} variant="light" role="status" aria-live="polite">
      {label}
    </Badge>
  );
}
