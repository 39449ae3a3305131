// The few global rules both web apps need (skip link, visible focus, no sideways scroll); after Mantine's styles, which each app's main.tsx imports first.
import './styles.css';
export * from './lib/api-error';
export * from './lib/sse';
export * from './lib/i18n';
export * from './lib/i18n-resources';
export * from './lib/theme';
export * from './lib/language-picker';
export * from './lib/shell';
export * from './lib/states';
export * from './lib/data-table';
export * from './lib/feedback';
export * from './lib/forms';
export * from './lib/time';
export * from './lib/live';
export * from './lib/navigation';
export * from './lib/page';
export * from './lib/web-app';
export * from './lib/url-filter';
