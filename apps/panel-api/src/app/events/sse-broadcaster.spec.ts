import { once } from 'node:events';
import http, { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { formatServerSentEvent, SseBroadcaster } from './sse-broadcaster';

/** A response stand-in: records every write; `stalled` ones never finish a write (a client that stopped reading). */
class RecordingSink extends Writable {
  readonly writes: string[] = [];
  constructor(readonly stalled = false) {
    super({ highWaterMark: 16 * 1024 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writes.push(chunk.toString('utf8'));
    if (!this.stalled) done();
  }
  get text(): string {
    return this.writes.join('');
  }
}

/** A client that reads everything, each write a turn after it was made (a socket, not a memory copy). */
class SlowReadingSink extends RecordingSink {
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writes.push(chunk.toString('utf8'));
    setImmediate(done);
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SseBroadcaster', () => {
  it('writes the ready block first, then all events of one turn in one write per client', async () => {
    const broadcaster = new SseBroadcaster();
    const sinks = [new RecordingSink(), new RecordingSink()];
    for (const sink of sinks) broadcaster.add(sink, 'ready\n\n');
    await turn();
    for (let i = 0; i < 100; i += 1) broadcaster.broadcast(formatServerSentEvent('sign_log', { n: i }, `run-${i}`));
    await turn();
    for (const sink of sinks) {
      expect(sink.writes).toHaveLength(2);
      expect(sink.writes[0]).toBe('ready\n\n');
      expect(sink.writes[1].match(/event: sign_log/g)).toHaveLength(100);
      expect(sink.writes[1].startsWith('id: run-0\nevent: sign_log\ndata: {"n":0}\n\n')).toBe(true);
    }
    expect(broadcaster.stats).toEqual({ clients: 2, eventsDelivered: 200, clientsDropped: 0 });
  });

  it('keeps serving the other clients while one does not read, and drops it with a close event once it lags too far', async () => {
    const broadcaster = new SseBroadcaster({ maxLagBytes: 64 * 1024, dropGraceMs: 50 });
    const fast = new RecordingSink();
    const slow = new RecordingSink(true);
    broadcaster.add(fast, 'ready\n\n');
    broadcaster.add(slow, 'ready\n\n');
    const block = formatServerSentEvent('sign_log', { text: 'x'.repeat(1000) });
    let turns = 0;
    while (broadcaster.size === 2 && turns < 200) {
      for (let i = 0; i < 10; i += 1) broadcaster.broadcast(block);
      await turn();
      turns += 1;
    }
    expect(broadcaster.size).toBe(1);
    expect(broadcaster.stats.clientsDropped).toBe(1);
    // The fast client got every event, the slow one was cut off (its writes stop short of them).
    expect(fast.text.match(/event: sign_log/g)).toHaveLength(turns * 10);
    expect(slow.writableEnded).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slow.destroyed).toBe(true);
    // Later events still reach the fast client.
    broadcaster.broadcast(block);
    await turn();
    expect(fast.text.match(/event: sign_log/g)).toHaveLength(turns * 10 + 1);
  });

  it('does not drop a reading client for one burst larger than the bound: only what waits behind a full socket counts', async () => {
    const broadcaster = new SseBroadcaster({ maxLagBytes: 64 * 1024, dropGraceMs: 50 });
    // Reads, but each write takes a turn to complete: right after a big write its buffer is full.
    const reading = new SlowReadingSink();
    broadcaster.add(reading, 'ready\n\n');
    await turn();
    const block = formatServerSentEvent('sign_log', { text: 'x'.repeat(1000) });
    for (let i = 0; i < 300; i += 1) broadcaster.broadcast(block);
    await turn();
    expect(reading.writableLength).toBeGreaterThan(64 * 1024);
    await new Promise((resolve) => reading.once('drain', resolve));
    broadcaster.broadcast(block);
    await turn();
    await turn();
    expect(broadcaster.stats.clientsDropped).toBe(0);
    expect(reading.text.match(/event: sign_log/g)).toHaveLength(301);
  });

  it('ends a stream with what was queued and then a close event naming the reason', async () => {
    const broadcaster = new SseBroadcaster();
    const sink = new RecordingSink();
    broadcaster.add(sink, 'ready\n\n');
    broadcaster.broadcast(formatServerSentEvent('sign_log', { n: 1 }));
    broadcaster.close(sink, 'token_revoked');
    await turn();
    expect(sink.text).toBe('ready\n\nevent: close\ndata: {"reason":"token_revoked"}\n\n');
    expect(sink.writableEnded).toBe(true);
    expect(broadcaster.size).toBe(0);
  });
});

/** An SSE client over a real TCP connection; `paused` ones stop reading (their socket fills up) until `resume()`. */
class SocketClient {
  text = '';
  readonly ended: Promise<void>;
  private response!: IncomingMessage;
  private waiters: Array<() => void> = [];

  private constructor(readonly opened: Promise<void>, ended: Promise<void>) {
    this.ended = ended;
  }

  static open(url: string, paused: boolean): SocketClient {
    let resolveOpened!: () => void;
    let resolveEnded!: () => void;
    const client = new SocketClient(new Promise((resolve) => (resolveOpened = resolve)), new Promise((resolve) => (resolveEnded = resolve)));
    http.get(url, (response) => {
      client.response = response;
      response.setEncoding('utf8');
      // A paused response stops reading its socket once a few KB are buffered: the kernel buffers fill.
      if (paused) response.pause();
      response.on('data', (chunk: string) => {
        client.text += chunk;
        for (const wake of client.waiters.splice(0)) wake();
      });
      response.on('end', resolveEnded);
      response.on('close', resolveEnded);
      resolveOpened();
    });
    return client;
  }

  resume(): void {
    this.response.resume();
  }

  async until(predicate: (text: string) => boolean): Promise<void> {
    while (!predicate(this.text)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

/** Event ids in the order a client received them. */
const idsIn = (text: string): string[] => [...text.matchAll(/^id: (\S+)$/gm)].map((match) => match[1]);

describe('SseBroadcaster over real sockets', () => {
  let server: http.Server;
  let url: string;
  let broadcaster: SseBroadcaster;
  const responses: http.ServerResponse[] = [];

  beforeEach(async () => {
    broadcaster = new SseBroadcaster({ maxLagBytes: 256 * 1024, dropGraceMs: 30_000 });
    server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      responses.push(response);
      broadcaster.add(response, 'event: ready\ndata: {}\n\n');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterEach(async () => {
    broadcaster.closeAll('shutdown');
    server.closeAllConnections();
    server.close();
    responses.length = 0;
  });

  it('keeps a reading client current, turn by turn, while a client that stopped reading backs up, then drops that one with a close event it reads after its backlog', async () => {
    const fast = SocketClient.open(url, false);
    const slow = SocketClient.open(url, true);
    await Promise.all([fast.opened, slow.opened]);
    await fast.until((text) => text.includes('event: ready'));
    expect(broadcaster.size).toBe(2);
    const slowResponse = responses[1];

    const perTurn = 64;
    const payload = { text: 'x'.repeat(1000) };
    let turns = 0;
    let slowBackedUp = 0;
    // Each turn waits for the reading client to have every event of that turn before the next:
    // it is never held up behind the client that does not read, whose unsent bytes keep growing
    // once the kernels' socket buffers (a few MB on loopback) are full: tens of turns.
    while (broadcaster.stats.clientsDropped === 0) {
      if (turns === 2_000) throw new Error('the client that does not read was never dropped');
      for (let i = 0; i < perTurn; i += 1) broadcaster.broadcast(formatServerSentEvent('sign_log', payload, `${turns}-${i}`));
      const last = `id: ${turns}-${perTurn - 1}\n`;
      await fast.until((text) => text.includes(last));
      if (slowResponse.writableLength > 0) slowBackedUp += 1;
      turns += 1;
    }
    expect(slowBackedUp).toBeGreaterThan(0);
    expect(broadcaster.size).toBe(1);
    expect(broadcaster.stats.clientsDropped).toBe(1);

    // Later events still reach the reading client, which has every event in order.
    broadcaster.broadcast(formatServerSentEvent('sign_log', payload, 'after-drop'));
    await fast.until((text) => text.includes('id: after-drop\n'));
    const expected = Array.from({ length: turns * perTurn }, (_, n) => `${Math.floor(n / perTurn)}-${n % perTurn}`);
    expect(idsIn(fast.text)).toEqual([...expected, 'after-drop']);

    // The dropped client, once it reads again, gets a prefix of the events in order, then the close event and the end.
    slow.resume();
    await slow.ended;
    const slowIds = idsIn(slow.text);
    expect(slowIds.length).toBeLessThan(expected.length);
    expect(slowIds).toEqual(expected.slice(0, slowIds.length));
    expect(slow.text.endsWith('event: close\ndata: {"reason":"lagging"}\n\n')).toBe(true);
  }, 30_000);
});
