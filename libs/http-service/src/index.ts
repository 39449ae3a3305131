export * from './lib/logging';
export * from './lib/readiness';
export * from './lib/http-errors';
export * from './lib/openapi';
export * from './lib/process-metrics';
export * from './lib/lifecycle-server';
export * from './lib/address-group';
export * from './lib/web-app';
