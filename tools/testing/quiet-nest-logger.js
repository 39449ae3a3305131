// Unit tests provoke failures on purpose (a corrupt task file, an unreachable release feed); the lines
// Nest's default console logger would print for them are expected, not news, so it stays silent in
// tests. An app booted by an e2e test installs its own logger (pino, at the harness's level), which
// replaces this. `TEST_LOGS=1` shows everything.
const { Logger } = require('@nestjs/common');

if (!process.env.TEST_LOGS) Logger.overrideLogger(false);
