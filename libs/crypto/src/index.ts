export * from './lib/hmac';
export * from './lib/master-key';
export * from './lib/envelope';
export * from './lib/keys';
export * from './lib/password-hashing';
export * from './lib/known-device';
