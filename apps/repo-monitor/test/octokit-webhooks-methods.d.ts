// @octokit/webhooks-methods declares its types only under `exports`, which the workspace's
// `moduleResolution: node` does not read; point TypeScript at the package's own declarations.
declare module '@octokit/webhooks-methods' {
  export * from '@octokit/webhooks-methods/dist-types/index';
}
