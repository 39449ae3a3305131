import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { ReactNode } from 'react';
import { errorMessage } from './api-error';

/** Toasts for the result of an action. */
export const toast = {
  success(message: ReactNode): void {
    notifications.show({ color: 'green', message, autoClose: 4000 });
  },
  error(error: unknown, title?: string): void {
    notifications.show({ color: 'red', title, message: errorMessage(error), autoClose: 8000 });
  },
  info(message: ReactNode): void {
    notifications.show({ message, autoClose: 4000 });
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
  return new Promise((resolve) => {
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
      confirmProps: { color: danger ? 'red' : undefined },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
