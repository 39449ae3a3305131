export * from './lib/sqlite-access-queue';
