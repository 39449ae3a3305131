import 'reflect-metadata';
import { processEnvironment } from '@shared/config';
import { join } from 'node:path';
import { runCli } from './cli/commands';

void runCli(process.argv.slice(2), {
  env: processEnvironment(),
  stdout: (line) => process.stdout.write(`${line}\n`),
  // The build copies the console next to main.js (dist/apps/repo-monitor/web).
  webRoot: join(__dirname, 'web'),
}).then((code) => {
  // `serve` returns 0 once listening and the server keeps the process alive.
  if (code !== 0) process.exit(code);
});
