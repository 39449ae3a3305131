import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeReasonOf, useEventStream } from './live';

/** A text/event-stream response with `blocks`; it stays open after them unless `end`. */
function streamResponse(blocks: string[], end: boolean): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const block of blocks) controller.enqueue(new TextEncoder().encode(block));
      if (end) controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const signLog = (id: string) => `id: ${id}\nevent: sign_log\ndata: {"task_name":"daily"}\n\n`;

describe('useEventStream', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reconnects at once after the service drops it as lagging and tells the page to read again what it missed', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(streamResponse(['event: ready\ndata: {}\n\n', signLog('r1'), 'event: close\ndata: {"reason":"lagging"}\n\n'], true))
      .mockResolvedValueOnce(streamResponse(['event: ready\ndata: {}\n\n', signLog('r2')], false));
    vi.stubGlobal('fetch', fetchMock);
    const messages: string[] = [];
    const onReconnect = vi.fn();
    const { result, unmount } = renderHook(() =>
      useEventStream({ url: '/api/events/x', headers: () => ({ authorization: 'Bearer t' }), onMessage: (message) => messages.push(`${message.event}:${message.id ?? ''}`), onReconnect }),
    );
    // Well before the 1 s backoff a network error gets.
    await waitFor(() => expect(messages).toContain('sign_log:r2'), { timeout: 500 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    expect(messages).toEqual(['ready:', 'sign_log:r1', 'close:r1', 'ready:', 'sign_log:r2']);
    // The message reaches the page before React has rendered the state it came with.
    await waitFor(() => expect(result.current).toEqual({ state: 'live' }));
    unmount();
  });

  it('after event: close {reason: token_revoked} asks again at once, gets the 401 and ends the session', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(streamResponse(['event: ready\ndata: {}\n\n', 'event: close\ndata: {"reason":"token_revoked"}\n\n'], true))
      .mockResolvedValueOnce(new Response('{"statusCode":401}', { status: 401 }));
    vi.stubGlobal('fetch', fetchMock);
    const onUnauthorized = vi.fn();
    const { result, unmount } = renderHook(() => useEventStream({ url: '/api/events/x', headers: () => undefined, onMessage: () => undefined, onUnauthorized }));
    await waitFor(() => expect(onUnauthorized).toHaveBeenCalledTimes(1), { timeout: 500 });
    await waitFor(() => expect(result.current).toEqual({ state: 'offline', retryInSeconds: 0 }));
    unmount();
  });

  it('waits for the backoff after a shutdown close', async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(streamResponse(['event: ready\ndata: {}\n\n', 'event: close\ndata: {"reason":"shutdown"}\n\n'], true));
    vi.stubGlobal('fetch', fetchMock);
    const { result, unmount } = renderHook(() => useEventStream({ url: '/api/events/x', headers: () => undefined, onMessage: () => undefined }));
    await waitFor(() => expect(result.current).toEqual({ state: 'offline', retryInSeconds: 1 }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    unmount();
  });
});

describe('closeReasonOf', () => {
  it('reads the reason of a close event only', () => {
    expect(closeReasonOf({ event: 'close', data: '{"reason":"lagging"}' })).toBe('lagging');
    expect(closeReasonOf({ event: 'sign_log', data: '{"reason":"lagging"}' })).toBeUndefined();
    expect(closeReasonOf({ event: 'close', data: 'not json' })).toBeUndefined();
  });
});
