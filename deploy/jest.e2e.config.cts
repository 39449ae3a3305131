// Deployment tests: the image recipe (dist/ + generated package.json installed into an empty folder)
// and, later, the reverse proxy and the Helm chart checks.
module.exports = {
  displayName: 'deploy',
  preset: '../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 900000,
};
