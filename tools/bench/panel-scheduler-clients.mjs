// Child process of panel-scheduler.bench.ts: opens N SSE connections to the sign-history stream,
// reports when all got `event: ready`, then counts sign_log events and their delay (arrival time of
// the chunk holding the event minus the publish time the benchmark puts in `message`), and reports
// when every client has all. The benchmark runs several of these processes, each with a share of
// the clients, so the receiving side is not one process working through every connection in turn.
//
// The bytes are scanned as they come (no UTF-8 decoding, no string building): the work per chunk is
// a few Buffer.indexOf calls, so the delay measured is the stream's, not this process's parsing.
import http from 'node:http';

const [url, clientCount] = [process.argv[2], Number(process.argv[3])];
let expected = Number(process.argv[4]);
const counts = new Array(clientCount).fill(0);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const BLOCK_END = Buffer.from('\n\n');
const READY = Buffer.from('event: ready');
const SIGN_LOG = Buffer.from('event: sign_log');
const MESSAGE = Buffer.from('"message":"');
let ready = 0;
let complete = 0;
let maxDelayMs = 0;
let totalDelayMs = 0;
let received = 0;
let lastReceiveAt = 0;

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

for (let i = 0; i < clientCount; i += 1) {
  http.get(url, { agent }, (response) => {
    let pending = Buffer.alloc(0);
    let isReady = false;
    response.on('data', (chunk) => {
      // Arrival time of the chunk: an event has reached the client when its bytes are here.
      const now = Date.now();
      const buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      let end;
      while ((end = buffer.indexOf(BLOCK_END, start)) >= 0) {
        const blockStart = start;
        start = end + 2;
        if (!isReady) {
          const at = buffer.indexOf(READY, blockStart);
          if (at >= 0 && at < end) {
            isReady = true;
            ready += 1;
            if (ready === clientCount) process.send({ type: 'ready' });
          }
          continue;
        }
        const eventAt = buffer.indexOf(SIGN_LOG, blockStart);
        if (eventAt < 0 || eventAt > end) continue;
        const delay = now - numberAt(buffer, buffer.indexOf(MESSAGE, eventAt) + MESSAGE.length);
        if (delay > maxDelayMs) maxDelayMs = delay;
        totalDelayMs += delay;
        received += 1;
        lastReceiveAt = now;
        counts[i] += 1;
        if (counts[i] === expected) {
          complete += 1;
          if (complete === clientCount) {
            process.send({ type: 'done', maxDelayMs, totalDelayMs, received, lastReceiveAt });
          }
        }
      }
      pending = start >= buffer.length ? Buffer.alloc(0) : buffer.subarray(start);
    });
  });
}
process.on('message', (message) => {
  if (message?.type === 'reset') {
    expected = message.expected;
    counts.fill(0);
    complete = 0;
    maxDelayMs = 0;
    totalDelayMs = 0;
    received = 0;
  }
  if (message === 'exit') process.exit(0);
});
