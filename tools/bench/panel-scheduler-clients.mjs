// Child process of panel-scheduler.bench.ts: opens N SSE connections to the sign-history stream,
// reports when all got `event: ready`, then counts sign_log events and their delay (receive time
// minus the publish time the benchmark puts in `message`), and reports when every client has all.
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
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!isReady && block.includes('event: ready')) {
          isReady = true;
          ready += 1;
          if (ready === clientCount) process.send({ type: 'ready' });
          continue;
        }
        if (!block.includes('event: sign_log')) continue;
        const now = Date.now();
        const data = JSON.parse(block.slice(block.indexOf('data: ') + 6));
        const delay = now - Number(data.message);
        maxDelayMs = Math.max(maxDelayMs, delay);
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
