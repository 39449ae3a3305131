// End-to-end specs: each boots the real application on a random port with its own data directory.
const { join } = require('node:path');
// A Jest config is read by Node from the workspace, not bundled: the module boundary rule does not apply.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { databaseFreeOnPostgres } = require('../../tools/testing/database-free.js');

module.exports = {
  displayName: 'panel-api-e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  // The services started in the test process hash passwords at the cheapest Argon2id cost (the file says why).
  setupFiles: ['<rootDir>/../../tools/testing/cheap-password-hashing.js'],
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 60000,
  // npm test runs the e2e specs in shards of about equal time (tools/testing/balanced-sequencer.js).
  testSequencer: '<rootDir>/../../tools/testing/balanced-sequencer.js',
  // Specs marked `// Database-free:` run on SQLite only (tools/testing/database-free.js says why).
  testPathIgnorePatterns: ['/node_modules/', ...databaseFreeOnPostgres(join(__dirname, 'test'))],
};
