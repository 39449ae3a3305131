// End-to-end specs: each boots the real application on a random port with its own data directory.
module.exports = {
  displayName: 'panel-api-e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 60000,
};
