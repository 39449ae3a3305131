export * from './lib/temp-dir';
export * from './lib/test-database';
export * from './lib/ports';
export * from './lib/http';
export * from './lib/forward-proxy';
