// Child process of panel-scheduler.bench.ts: opens N SSE connections to the sign-history stream,
// reports when all got `event: ready`, then counts sign_log events and their delay (arrival time of
// the chunk holding the event minus the publish time the benchmark puts in `message`), and reports
// when every client has all.
import http from 'node:http';

const [url, clientCount] = [process.argv[2], Number(process.argv[3])];
let expected = Number(process.argv[4]);
const counts = new Array(clientCount).fill(0);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let ready = 0;
let complete = 0;
let maxDelayMs = 0;
let totalDelayMs = 0;
let received = 0;
let lastReceiveAt = 0;

for (let i = 0; i < clientCount; i += 1) {
  http.get(url, { agent }, (response) => {
    response.setEncoding('utf8');
    let buffer = '';
    let isReady = false;
    response.on('data', (chunk) => {
      // Arrival time of the chunk: an event has reached the client when its bytes are here, however
      // long this one process then takes to go through the other 199 connections' chunks.
      const now = Date.now();
      buffer += chunk;
      let start = 0;
      let end;
      while ((end = buffer.indexOf('\n\n', start)) >= 0) {
        const blockStart = start;
        start = end + 2;
        if (!isReady) {
          if (buffer.startsWith('event: ready', blockStart) || buffer.slice(blockStart, end).includes('event: ready')) {
            isReady = true;
            ready += 1;
            if (ready === clientCount) process.send({ type: 'ready' });
          }
          continue;
        }
        const eventAt = buffer.indexOf('event: sign_log', blockStart);
        if (eventAt < 0 || eventAt > end) continue;
        // `message` carries the publish time (ms); read it without parsing the whole JSON.
        const messageAt = buffer.indexOf('"message":"', eventAt) + 11;
        const delay = now - Number(buffer.slice(messageAt, buffer.indexOf('"', messageAt)));
        if (delay > maxDelayMs) maxDelayMs = delay;
        totalDelayMs += delay;
        received += 1;
        lastReceiveAt = now;
        counts[i] += 1;
        if (counts[i] === expected) {
          complete += 1;
          if (complete === clientCount) {
            process.send({ type: 'done', maxDelayMs, meanDelayMs: totalDelayMs / received, received, lastReceiveAt });
          }
        }
      }
      buffer = start === 0 ? buffer : buffer.slice(start);
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
