// Preloaded (node --require) into each service that tools/scripts/start.mjs starts: when start.mjs is
// gone, however it went (kill -9 included), the service is re-parented and stops itself as on SIGTERM
// (draining first), so `npm start` never leaves a service holding its port.
'use strict';
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, 'SIGTERM');
}, 500);
watch.unref();
