export * from './lib/errors';
export * from './lib/load';
export * from './lib/parse';
export * from './lib/redact';
export * from './lib/validators';
export * from './lib/logging';
export * from './lib/readiness';
export * from './lib/trust-proxy';
