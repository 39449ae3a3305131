import { describe, expect, it, vi } from 'vitest';
import { backoffSeconds, readSse, SseParser } from './sse';

describe('SseParser', () => {
  it('joins data lines, keeps the event name and id, and skips comments', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\nevent: sign_history\nid: 7\ndata: {"a":\ndata: 1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'sign_history', data: '{"a":\n1}', id: '7' }]);
  });

  it('handles messages split across chunks and CRLF line ends', () => {
    const parser = new SseParser();
    expect(parser.push('data: hel')).toEqual([]);
    expect(parser.push('lo\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'message', data: 'hello', id: undefined }]);
  });
});

describe('readSse', () => {
  it('sends the headers, reports open and delivers each message', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: a\ndata: 1\n\n'));
        controller.enqueue(new TextEncoder().encode('data: 2\n\n'));
        controller.close();
      },
    });
    const fetchImpl = vi.fn(async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    const messages: string[] = [];
    const onOpen = vi.fn();
    await readSse('/api/events/x', { headers: { authorization: 'Bearer t' }, fetchImpl, onOpen, onMessage: (message) => messages.push(`${message.event}:${message.data}`) });
    expect(fetchImpl).toHaveBeenCalledWith('/api/events/x', expect.objectContaining({ headers: expect.objectContaining({ authorization: 'Bearer t' }) }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(messages).toEqual(['a:1', 'message:2']);
  });

  it('rejects with the response when the service refuses the stream', async () => {
    const fetchImpl = vi.fn(async () => new Response('{"statusCode":401}', { status: 401 }));
    await expect(readSse('/x', { fetchImpl, onMessage: () => undefined })).rejects.toMatchObject({ status: 401 });
  });
});

describe('backoffSeconds', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(backoffSeconds)).toEqual([1, 2, 4, 8, 16, 30, 30]);
  });
});
