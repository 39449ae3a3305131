import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { translationsReady } from './i18n/setup';

// No service worker on purpose (docs/monitor-console.md): every page shows live data, so offline
// the console has nothing true to show, and the hashed assets are already cached for a year by the
// browser (Cache-Control: immutable). A worker would only add a way to serve a stale index.html
// after an upgrade.
// The first render waits for the Chinese strings when Chinese is shown (no flash of English).
void translationsReady.then(() => createRoot(document.getElementById('root') as HTMLElement).render(<App />));
