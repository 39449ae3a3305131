import { Text } from '@mantine/core';
import { ReactNode } from 'react';
import { overlayLayer } from './overlays';
import { ErrorText } from './states';

type ToastOptions = { color?: string; title?: string; message: ReactNode; autoClose: number };

function show(options: ToastOptions): Promise<string> {
  return overlayLayer().then(({ notifications }) => notifications.show(options));
}

/** Error toasts still on screen: a success that follows takes them away, so a fixed error does not linger. */
const errorToasts = new Set<Promise<string>>();

function clearErrorToasts(): void {
  const open = [...errorToasts];
  errorToasts.clear();
  if (!open.length) return;
  void overlayLayer().then(({ notifications }) => {
    for (const id of open) void id.then((value) => notifications.hide(value));
  });
}

/** Toasts for the result of an action (the toast layer loads with the first one). */
export const toast = {
  /** Also closes the error toasts shown before: what failed then has just worked. */
  success(message: ReactNode): void {
    clearErrorToasts();
    void show({ color: 'green', message, autoClose: 4000 });
  },
  error(error: unknown, title?: string): void {
    const id = show({ color: 'red', title, message: <ErrorText error={error} />, autoClose: 8000 });
    // Hiding one that closed by itself does nothing; the set is emptied by the next success.
    errorToasts.add(id);
  },
  clearErrors: clearErrorToasts,
  info(message: ReactNode): void {
    void show({ message, autoClose: 4000 });
  },
};

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** Destructive: the confirm button is red. */
  danger?: boolean;
}

/** Asks before an action; resolves true only when the person confirms (closing the dialog is "no"). */
export function confirmAction({ title, message, confirmLabel, cancelLabel, danger = true }: ConfirmOptions): Promise<boolean> {
  return overlayLayer().then(({ modals }) => new Promise<boolean>((resolve) => {
    let settled = false;
    const settle = (value: boolean) => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    modals.openConfirmModal({
      title,
      centered: true,
      children: typeof message === 'string' ? <Text size="sm">{message}</Text> : message,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      // red.9: white on the theme's red 7 is 3.8:1, below the 4.5:1 text needs.
      confirmProps: { color: danger ? 'red.9' : undefined },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  }));
}
