export * from './lib/errors';
export * from './lib/load';
export * from './lib/parse';
export * from './lib/redact';
export * from './lib/validators';
export * from './lib/trust-proxy';
export * from './lib/time-zone';
export * from './lib/package-version';
