// Vitest set-up for component tests in jsdom: jest-dom matchers and the browser APIs Mantine uses
// that jsdom lacks (matchMedia, ResizeObserver, scrollIntoView).
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { ReadableStream, TextDecoderStream, TextEncoderStream, TransformStream, WritableStream } from 'node:stream/web';

afterEach(() => cleanup());

// findBy* and waitFor wait for a state the test names; their 1 s default is a bet on the machine's
// speed (a dialog's transition took longer with the e2e runs sharing the two cores). The test's own
// timeout still bounds every wait.
configure({ asyncUtilTimeout: 10_000 });

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe(): void {
    return undefined;
  }
  unobserve(): void {
    return undefined;
  }
  disconnect(): void {
    return undefined;
  }
}
if (!('ResizeObserver' in window)) Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
// Vitest's vmThreads pool gives each spec file a jsdom window as its whole global scope; the web
// streams of the browser (and of Node, which the default forks pool left visible) are not in it.
for (const [name, value] of Object.entries({ ReadableStream, TextDecoderStream, TextEncoderStream, TransformStream, WritableStream })) {
  if (!(name in globalThis)) Object.defineProperty(globalThis, name, { writable: true, configurable: true, value });
}
