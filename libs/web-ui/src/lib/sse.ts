/** One Server-Sent Events message. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental parser for the text/event-stream format (WHATWG HTML §9.2): feed it chunks of text,
 * get complete messages back. Comments (`:` lines, the services' keep-alives) are skipped.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone trailing \r may be the first half of \r\n: wait for more input.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      if (!this.data.length) {
        this.event = '';
        return undefined;
      }
      const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n'), id: this.id };
      this.data = [];
      this.event = '';
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}

export interface ReadSseOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  onOpen?: () => void;
  onMessage: (message: SseMessage) => void;
  fetchImpl?: typeof fetch;
}

/**
 * Reads an SSE stream with fetch, so the request can carry an Authorization header (EventSource
 * cannot). Resolves when the server ends the stream; rejects with the Response when it answers
 * with something other than 200 text/event-stream, or with the network error.
 */
export async function readSse(url: string, options: ReadSseOptions): Promise<void> {
  const response = await (options.fetchImpl ?? fetch)(url, {
    headers: { accept: 'text/event-stream', ...options.headers },
    signal: options.signal,
    cache: 'no-store',
  });
  if (!response.ok || !response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    throw response;
  }
  options.onOpen?.();
  const parser = new SseParser();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    for (const message of parser.push(value)) options.onMessage(message);
  }
}

/** Reconnection delay after `attempt` failures in a row: 1 s doubling up to 30 s. */
export function backoffSeconds(attempt: number): number {
  return Math.min(30, 2 ** Math.max(0, attempt));
}
