import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { useEffect } from 'react';

export { modals } from '@mantine/modals';
export { notifications } from '@mantine/notifications';

/**
 * The confirm dialogs and toasts, loaded the first time a page asks for one (see overlays.tsx).
 * ModalsProvider renders the modals it is asked for by event, so it needs no children here.
 */
export default function OverlayLayer({ onMounted }: { onMounted: () => () => void }) {
  // Children's effects (the providers' event listeners) run before this one: the layer is ready.
  useEffect(onMounted, [onMounted]);
  return (
    <>
      <ModalsProvider />
      {/* At the bottom: at the top they covered the title and close button of a drawer (which opens on
          the right, and fills the width of a phone). */}
      <Notifications limit={5} position="bottom-right" />
    </>
  );
}
