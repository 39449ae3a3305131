export * from './lib/proxied-fetch';
export * from './lib/proxy-tunnel';
