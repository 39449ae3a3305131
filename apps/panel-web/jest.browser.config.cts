// Browser tests: the built web app (dist/apps/panel-web) served by the real panel-api on SQLite
// with the Telegram simulator, driven in Debian's Chromium with playwright-core.
module.exports = {
  displayName: 'panel-web-browser',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  // The services started in the test process hash passwords at the cheapest Argon2id cost (the file says why).
  setupFiles: ['<rootDir>/../../tools/testing/cheap-password-hashing.js'],
  testMatch: ['<rootDir>/browser/**/*.browser-spec.ts'],
  testTimeout: 180000,
};
