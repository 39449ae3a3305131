export * from './lib/delivery-result';
export * from './lib/retry';
export * from './lib/telegram-html';
export * from './lib/telegram-bot-sender';
export * from './lib/push-channels';
export * from './lib/address-guard';
export * from './lib/standard-webhooks';
export * from './lib/signed-webhook-sender';
