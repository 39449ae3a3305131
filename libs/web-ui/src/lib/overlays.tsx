import { lazy, Suspense, useSyncExternalStore } from 'react';

type OverlayModule = typeof import('./overlay-layer');

/**
 * Confirm dialogs and toasts are code no page needs until someone acts: Mantine's modals and
 * notifications (with the scroll lock and transitions they bring) are about 13 KB of gzip JS that the
 * login and the dashboard would otherwise load and parse up front. The layer is loaded and mounted
 * the first time a toast or a confirmation is asked for; what was asked then shows.
 */
const OverlayLayer = lazy(() => import('./overlay-layer'));

let wanted = false;
let layerModule: Promise<OverlayModule> | undefined;
let mountedLayers = 0;
let waiting: (() => void)[] = [];
const listeners = new Set<() => void>();

/** The loaded layer, once its providers are mounted and listening. */
export function overlayLayer(): Promise<OverlayModule> {
  layerModule ??= import('./overlay-layer');
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  const mounted = mountedLayers > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
  return Promise.all([layerModule, mounted]).then(([module]) => module);
}

/** Called by the layer when its providers listen (and again, undone, when it unmounts). */
function onMounted(): () => void {
  mountedLayers += 1;
  const resolved = waiting;
  waiting = [];
  for (const resolve of resolved) resolve();
  return () => {
    mountedLayers -= 1;
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the layer mounts (inside the theme); renders nothing until a toast or dialog is wanted. */
export function OverlayHost() {
  const show = useSyncExternalStore(subscribe, () => wanted, () => false);
  return show ? (
    <Suspense fallback={null}>
      <OverlayLayer onMounted={onMounted} />
    </Suspense>
  ) : null;
}
