// One Jest setup for every project: SWC transpiles TypeScript (with decorator metadata for Nest),
// type checking is the job of the separate `typecheck` target.
const { readFileSync } = require('node:fs');
const nxPreset = require('@nx/jest/preset').default;

// The workspace's import aliases (`@shared/config` ...), mapped to their source as tsconfig.base.json
// says. Nx's preset resolves them with a resolver that loads TypeScript into every Jest process and
// asks it once Jest's own resolution has failed (an exception per import of a library); the map is
// read once and Jest resolves every import itself.
const aliases = JSON.parse(readFileSync(`${__dirname}/tsconfig.base.json`, 'utf8')).compilerOptions.paths;
const aliasMap = Object.fromEntries(
  Object.entries(aliases).map(([alias, [target]]) => [`^${alias.replace(/[/.]/g, '\\$&')}$`, `${__dirname}/${target}`]),
);

// Packages published as ES modules only; Jest runs CommonJS, so SWC transpiles them too.
const esmPackages = [
  '@octokit',
  'octokit',
  'universal-user-agent',
  'universal-github-app-jwt',
  'before-after-hook',
  'fast-content-type-parse',
  'json-with-bigint',
  'toad-cache',
  'webdav',
  'p-limit',
  'yocto-queue',
  'content-disposition',
  'content-type',
  // @fastify/cookie loads the ESM-only `cookie` with a dynamic import(); transpiled, it becomes a require.
  '@fastify/cookie',
  'cookie',
  // webdav's ESM-only dependency tree
  '@buttercup/fetch',
  '@nodable/entities',
  'xml-naming',
  'strnum',
  'anynum',
  'hot-patcher',
  'layerr',
  'node-fetch',
  'data-uri-to-buffer',
  'fetch-blob',
  'formdata-polyfill',
  'url-join',
];

const nxPresetWithoutResolver = { ...nxPreset };
delete nxPresetWithoutResolver.resolver;

module.exports = {
  ...nxPresetWithoutResolver,
  testEnvironment: 'node',
  // A test target that finds no test fails: a wrong testMatch or a moved folder must not pass green.
  passWithNoTests: false,
  // Unit specs that talk to a real local server (WebDAV, HTTP stand-ins) need more than Jest's 5 s
  // when CI runs other steps on the same cores; e2e, browser and deploy configs set their own.
  testTimeout: 30_000,
  reporters: ['default', require.resolve('./tools/testing/results-reporter.js')],
  // Jest's runtime with modules compiled through V8's compilation cache (the file says why).
  runtime: require.resolve('./tools/testing/caching-runtime.js'),
  setupFiles: [require.resolve('./tools/testing/quiet-nest-logger.js')],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages.join('|')})/)`],
  // ESM-only packages whose `exports` offer only an `import` condition, which Jest's CommonJS
  // resolver cannot match: point it at the file (transpiled like the others above).
  moduleNameMapper: {
    ...aliasMap,
    '^@octokit/auth-unauthenticated$': `${__dirname}/node_modules/@octokit/auth-unauthenticated/dist-node/index.js`,
    '^@octokit/webhooks-methods$': `${__dirname}/node_modules/@octokit/webhooks-methods/dist-node/index.js`,
  },
};
