export * from './lib/sqlite-access-queue';
export * from './lib/readiness-report';
export * from './lib/sqlite-driver';
