import type { Writable } from 'node:stream';

/** One `event:` block of a server-sent event stream. */
export function formatServerSentEvent(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Why the server ended a stream; sent to the client as `event: close` with `{reason}` before the end. */
export type StreamCloseReason = 'lagging' | 'token_revoked' | 'token_expired' | 'shutdown';

/** The part of a response the broadcaster writes to (an http.ServerResponse in the service). */
export type SseSink = Pick<Writable, 'write' | 'end' | 'destroy' | 'once' | 'writableLength' | 'writableEnded' | 'destroyed'>;

export interface SseBroadcasterLimits {
  /**
   * Bytes queued here for a client whose socket is still full from an earlier write, above which it
   * is dropped. What was already handed to the socket does not count: one burst larger than this
   * reaches a client that keeps reading.
   */
  maxLagBytes: number;
  /** How long a dropped client gets to read its `close` event before its socket is destroyed. */
  dropGraceMs: number;
}

export const DEFAULT_SSE_LIMITS: SseBroadcasterLimits = { maxLagBytes: 1024 * 1024, dropGraceMs: 5_000 };

interface Client {
  sink: SseSink;
  /** Blocks for this client alone (its `ready`, keep-alives), written before the next shared batch. */
  own: string[];
  /** What waits for a full socket to drain. */
  backlog: Array<string | Buffer>;
  backlogBytes: number;
  /** write() answered false: wait for `drain` before writing more. */
  draining: boolean;
  closed: boolean;
}

/**
 * Fans events out to many SSE responses. The events of one event-loop turn are joined and encoded
 * once into one Buffer that every client is written (coalescing: one write per client per turn,
 * not one per event, and no per-client copy). A client whose socket is full gets no writes until
 * it drains, so it never holds up the others; once more than `maxLagBytes` wait here for it, it is
 * sent `event: close` `{"reason":"lagging"}` and ended (destroyed if it still does not read within
 * `dropGraceMs`).
 */
export class SseBroadcaster {
  private readonly clients = new Map<SseSink, Client>();
  private batch: string[] = [];
  private batchEvents = 0;
  private flushScheduled = false;
  private delivered = 0;
  private dropped = 0;

  constructor(private readonly limits: SseBroadcasterLimits = DEFAULT_SSE_LIMITS) {}

  get size(): number {
    return this.clients.size;
  }

  get stats(): { clients: number; eventsDelivered: number; clientsDropped: number } {
    return { clients: this.clients.size, eventsDelivered: this.delivered, clientsDropped: this.dropped };
  }

  /** Starts fanning out to `sink`, `first` (the `ready` event) before anything else. */
  add(sink: SseSink, first: string): void {
    this.clients.set(sink, { sink, own: [first], backlog: [], backlogBytes: 0, draining: false, closed: false });
    this.scheduleFlush();
  }

  /** Forgets a client whose connection ended (no write). */
  remove(sink: SseSink): void {
    const client = this.clients.get(sink);
    if (!client) return;
    client.closed = true;
    this.clients.delete(sink);
  }

  /** Queues one serialized event block for every client. */
  broadcast(block: string): void {
    if (this.clients.size === 0) return;
    this.batch.push(block);
    this.batchEvents += 1;
    this.scheduleFlush();
  }

  /** Queues a block for one client (a keep-alive comment, say). */
  sendTo(sink: SseSink, block: string): void {
    const client = this.clients.get(sink);
    if (!client || client.closed) return;
    client.own.push(block);
    this.scheduleFlush();
  }

  /** Sends what is queued, then `event: close` with the reason, and ends the stream. */
  close(sink: SseSink, reason: StreamCloseReason): void {
    const client = this.clients.get(sink);
    if (!client) return;
    this.finish(client, reason);
  }

  closeAll(reason: StreamCloseReason): void {
    for (const client of [...this.clients.values()]) this.finish(client, reason);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const shared = this.batch.length > 0 ? Buffer.from(this.batch.length === 1 ? this.batch[0] : this.batch.join(''), 'utf8') : undefined;
    const events = this.batchEvents;
    this.batch = [];
    this.batchEvents = 0;
    for (const client of [...this.clients.values()]) {
      const chunks: Array<string | Buffer> = client.own.length > 0 ? [client.own.join('')] : [];
      client.own = [];
      if (shared) chunks.push(shared);
      if (chunks.length === 0) continue;
      if (shared) this.delivered += events;
      if (client.draining) {
        for (const chunk of chunks) {
          client.backlog.push(chunk);
          client.backlogBytes += chunk.length;
        }
        if (client.backlogBytes > this.limits.maxLagBytes) this.drop(client);
        continue;
      }
      this.write(client, chunks);
    }
  }

  private write(client: Client, chunks: Array<string | Buffer>): void {
    let ok = true;
    for (const chunk of chunks) ok = client.sink.write(chunk) && ok;
    if (ok) return;
    client.draining = true;
    client.sink.once('drain', () => {
      if (client.closed) return;
      client.draining = false;
      const backlog = client.backlog;
      client.backlog = [];
      client.backlogBytes = 0;
      if (backlog.length > 0) this.write(client, backlog);
    });
  }

  private drop(client: Client): void {
    this.dropped += 1;
    this.finish(client, 'lagging');
  }

  private finish(client: Client, reason: StreamCloseReason): void {
    if (client.closed) return;
    client.closed = true;
    this.clients.delete(client.sink);
    const sink = client.sink;
    if (sink.writableEnded || sink.destroyed) return;
    // A lagging client gets its close event instead of the backlog; the others get what was queued first.
    const queued = reason === 'lagging' ? [] : [...client.backlog, ...client.own];
    client.backlog = [];
    client.own = [];
    for (const chunk of queued) sink.write(chunk);
    sink.end(formatServerSentEvent('close', { reason }));
    const grace = setTimeout(() => {
      if (!sink.destroyed) sink.destroy();
    }, this.limits.dropGraceMs);
    grace.unref();
    sink.once('close', () => clearTimeout(grace));
  }
}
