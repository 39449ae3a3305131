// Child process of panel-scheduler.bench.ts: opens N SSE connections to the sign-history stream,
// reports when all got `event: ready`, then records the sign_log events each connection receives and
// reports their delays once every connection has the round's last event. The benchmark runs several
// of these processes, each with a share of the clients, so the receiving side is not one process
// working through every connection in turn.
//
// What is measured: the delay of an event is the time its bytes reached the client (Date.now() when
// the `data` event carrying the end of its block fires) minus its publish time, which the benchmark
// puts in `message` (Date.now() in the service process: the same clock). To keep this process's own
// work out of the figure, a `data` handler only stores the chunk with its arrival time and looks at
// the chunk's last bytes for the round's final event id (one small search per chunk). The blocks
// are parsed after the round, when every connection is complete.
import http from 'node:http';

const [url, clientCount] = [process.argv[2], Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const BLOCK_END = Buffer.from('\n\n');
const READY = Buffer.from('event: ready');
const SIGN_LOG = Buffer.from('event: sign_log');
const MESSAGE = Buffer.from('"message":"');
/** The final block of a round ends with its data line, well inside this many bytes after its `id:` line. */
const TAIL_BYTES = 1024;

/** Per connection: its chunks since the round began, and whether it has the round's final event. */
const connections = [];
/** `id: <final run id>\n` of the current round; a connection whose bytes end with that block is complete. */
let finalId = Buffer.alloc(0);
let ready = 0;
let complete = 0;
/** process.cpuUsage() when the round began; the CPU used until the last connection completes is reported. */
let roundCpu;
let receivingCpuMs = 0;

/** The decimal number at `at` (the publish time in ms), read from the bytes. */
function numberAt(buffer, at) {
  let value = 0;
  for (let i = at; i < buffer.length; i += 1) {
    const digit = buffer[i] - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}

/** True when `tail` ends with a whole block that starts with the round's final id. */
function endsWithFinalBlock(tail) {
  if (finalId.length === 0 || tail.length < 2 || tail[tail.length - 1] !== 10 || tail[tail.length - 2] !== 10) return false;
  const at = tail.lastIndexOf(finalId);
  return at >= 0 && tail.indexOf(BLOCK_END, at) === tail.length - 2;
}

/** Delays (ms) of every sign_log event of one connection: chunk arrival of its block end minus publish time. */
function delaysOf(connection, into) {
  let pending = Buffer.alloc(0);
  for (const { at, chunk } of connection.chunks) {
    const buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    let end;
    while ((end = buffer.indexOf(BLOCK_END, start)) >= 0) {
      const blockStart = start;
      start = end + 2;
      const eventAt = buffer.indexOf(SIGN_LOG, blockStart);
      if (eventAt < 0 || eventAt > end) continue;
      into.push(at - numberAt(buffer, buffer.indexOf(MESSAGE, eventAt) + MESSAGE.length));
    }
    pending = start >= buffer.length ? Buffer.alloc(0) : buffer.subarray(start);
  }
}

function report() {
  const delays = [];
  let lastReceiveAt = 0;
  for (const connection of connections) {
    delaysOf(connection, delays);
    lastReceiveAt = Math.max(lastReceiveAt, connection.completeAt);
  }
  process.send({ type: 'done', delays, lastReceiveAt, cpuMs: receivingCpuMs });
}

for (let i = 0; i < clientCount; i += 1) {
  const connection = { chunks: [], tail: Buffer.alloc(0), isReady: false, done: false, completeAt: 0 };
  connections.push(connection);
  http.get(url, { agent }, (response) => {
    response.on('data', (chunk) => {
      const at = Date.now();
      if (!connection.isReady) {
        // The ready block comes first, before any event is published.
        if (chunk.indexOf(READY) >= 0) {
          connection.isReady = true;
          ready += 1;
          if (ready === clientCount) process.send({ type: 'ready' });
        }
        return;
      }
      if (connection.done) return;
      connection.chunks.push({ at, chunk });
      // The final block may straddle two chunks: keep a few bytes of the previous one.
      const tail = chunk.length >= TAIL_BYTES ? chunk.subarray(chunk.length - TAIL_BYTES) : Buffer.concat([connection.tail, chunk]).subarray(-TAIL_BYTES);
      connection.tail = tail;
      if (!endsWithFinalBlock(tail)) return;
      connection.done = true;
      connection.completeAt = at;
      complete += 1;
      if (complete !== clientCount) return;
      const used = process.cpuUsage(roundCpu);
      receivingCpuMs = Math.round((used.user + used.system) / 1000);
      report();
    });
  });
}

process.on('message', (message) => {
  if (message?.type === 'round') {
    // A new round: forget the last one's bytes; complete once its `finalRunId` arrives.
    finalId = Buffer.from(`id: ${message.finalRunId}\n`);
    complete = 0;
    roundCpu = process.cpuUsage();
    for (const connection of connections) {
      connection.chunks = [];
      connection.tail = Buffer.alloc(0);
      connection.done = false;
      connection.completeAt = 0;
    }
    process.send({ type: 'round' });
  }
  if (message === 'exit') process.exit(0);
});
