// Browser tests: the built web app (dist/apps/repo-monitor-web) served by the real repo-monitor on SQLite
// with the local GitHub, Bot API and webhook stand-ins, driven in Debian's Chromium with playwright-core.
module.exports = {
  displayName: 'repo-monitor-web-browser',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/browser/**/*.browser-spec.ts'],
  testTimeout: 180000,
};
