export * from './lib/release-feed';
export * from './lib/update-check';
