export * from './lib/temp-dir';
export * from './lib/test-database';
export * from './lib/ports';
export * from './lib/http';
export * from './lib/stand-ins/local-http-server';
export * from './lib/stand-ins/local-telegram-bot-api';
export * from './lib/stand-ins/local-webhook-receiver';
export * from './lib/stand-ins/local-http-proxy';
