export * from './lib/notify';
