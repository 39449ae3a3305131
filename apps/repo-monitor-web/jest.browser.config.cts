// Browser tests: the built web app (dist/apps/repo-monitor-web) served by the real repo-monitor on SQLite
// with the local GitHub, Bot API and webhook stand-ins, driven in Debian's Chromium with playwright-core.
module.exports = {
  displayName: 'repo-monitor-web-browser',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  // The services started in the test process hash passwords at the cheapest Argon2id cost (the file says why).
  setupFiles: ['<rootDir>/../../tools/testing/cheap-password-hashing.js'],
  testMatch: ['<rootDir>/browser/**/*.browser-spec.ts'],
  testTimeout: 180000,
};
