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
