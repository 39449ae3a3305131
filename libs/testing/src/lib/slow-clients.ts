import { connect, type Socket } from 'node:net';

/** One connection of a slow client: when the service closed it (ms after it was opened), and what it answered. */
export interface SlowConnection {
  /** Resolves once the service closed the connection: how long it stayed open, and the first bytes of any answer. */
  readonly closed: Promise<{ afterMs: number; answer: string }>;
  /** Whether the connection is still open. */
  readonly open: boolean;
}

export interface SlowClientOptions {
  /** `POST /api/auth/login`: a body is announced and then sent one byte at a time. */
  method?: string;
  path: string;
  /** One byte every this many ms, body bytes (or header bytes with `slowHeaders`). */
  byteEveryMs: number;
  /** Send the request headers slowly, too (slowloris), instead of all at once. */
  slowHeaders?: boolean;
  /** The body length announced (1 KiB by default: under every login route's body limit, so it is awaited). */
  contentLength?: number;
  /** The local (source) address, to speak from one of many loopback addresses (127.0.0.x). */
  localAddress?: string;
}

export interface SlowClients {
  connections: SlowConnection[];
  /** Ends every connection still open and stops sending. */
  destroy: () => void;
}

/**
 * Opens `count` connections to `baseUrl` that trickle their request: headers at once (or one byte
 * at a time), then a body announced (1 KiB) and sent one byte every `byteEveryMs`. Resolves once
 * every connection is established (a refused or reset one counts as closed at 0 ms).
 */
export async function openSlowClients(baseUrl: string, count: number, options: SlowClientOptions): Promise<SlowClients> {
  const url = new URL(baseUrl);
  const head = `${options.method ?? 'POST'} ${options.path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${options.contentLength ?? 1024}\r\n\r\n`;
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  const connections = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: options.localAddress });
      sockets.push(socket);
      const openedAt = Date.now();
      let answer = '';
      let open = true;
      socket.on('data', (chunk: Buffer) => {
        if (answer.length < 512) answer += chunk.toString('latin1');
      });
      const closed = new Promise<{ afterMs: number; answer: string }>((resolve) => {
        socket.once('close', () => {
          open = false;
          resolve({ afterMs: Date.now() - openedAt, answer });
        });
      });
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => {
        socket.once('connect', () => resolve());
        socket.once('close', () => resolve());
      });
      if (open) {
        let sent = options.slowHeaders ? 0 : head.length;
        if (sent > 0) socket.write(head);
        const timer = setInterval(() => {
          if (!open) return clearInterval(timer);
          socket.write(sent < head.length ? head[sent] : '{');
          sent += 1;
        }, options.byteEveryMs);
        timer.unref();
        timers.push(timer);
      }
      return {
        closed,
        get open() {
          return open;
        },
      };
    }),
  );
  return {
    connections,
    destroy: () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    },
  };
}
