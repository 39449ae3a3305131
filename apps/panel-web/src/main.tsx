import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { App, translationsReady } from './app';

void translationsReady.then(() => createRoot(document.getElementById('root') as HTMLElement).render(<App />));

// The service worker caches static files only (see public/sw.js); never in development, where
// Vite serves modules that change on every edit.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
