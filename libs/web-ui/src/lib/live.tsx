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
  enabled?: boolean;
}

/** Keeps an SSE stream open with fetch, reconnecting with backoff 1 → 30 s; reports live/offline. */
export function useEventStream({ url, headers, onMessage, onUnauthorized, enabled = true }: EventStreamOptions): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>({ state: 'connecting' });
  const callbacks = useRef({ headers, onMessage, onUnauthorized });
  callbacks.current = { headers, onMessage, onUnauthorized };
  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      setStatus({ state: 'connecting' });
      readSse(url, {
        headers: callbacks.current.headers(),
        signal: controller.signal,
        onOpen: () => {
          attempt = 0;
          setStatus({ state: 'live' });
        },
        onMessage: (message) => callbacks.current.onMessage(message),
      }).then(
        () => retry(),
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
