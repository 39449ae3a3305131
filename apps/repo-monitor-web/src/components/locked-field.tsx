import { Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a settings field shows when the environment sets it: read-only, with the variable that
 * locks it named, so the person knows where the value comes from and how to change it.
 */
export interface FieldLock {
  locked: boolean;
  variable: string;
}

/** The lock of each field from the service's `locked_fields` and the page's field → variable map. */
export function fieldLocks<F extends string>(lockedFields: readonly string[], variables: Record<F, string>): Record<F, FieldLock> {
  const locked = new Set(lockedFields);
  return Object.fromEntries(Object.entries(variables).map(([field, variable]) => [field, { locked: locked.has(field), variable }])) as Record<F, FieldLock>;
}

/** The description line under a field: the lock note when locked, else the field's own help. */
export function LockNote({ lock, help }: { lock: FieldLock; help?: ReactNode }) {
  const { t } = useTranslation();
  if (!lock.locked) return <>{help}</>;
  return (
    <Group gap={4} wrap="nowrap" component="span" style={{ display: 'inline-flex' }}>
      <IconLock size={12} aria-hidden />
      <Text span size="xs">
        {t('common.lockedBy', { variable: lock.variable })}
      </Text>
    </Group>
  );
}

/** Props for a Mantine input under a lock: read-only and described by the lock note. */
export function lockedInputProps(lock: FieldLock, help?: ReactNode): { readOnly: boolean; description: ReactNode; variant?: 'filled'; 'data-locked'?: boolean } {
  // Filled, so a read-only field does not look like one waiting for input.
  return { readOnly: lock.locked, description: lock.locked || help ? <LockNote lock={lock} help={help} /> : undefined, ...(lock.locked ? { variant: 'filled', 'data-locked': true } : {}) };
}

/** Only the unlocked fields of a form's values go into the request body (a locked field is refused with 409). */
export function withoutLocked<T extends Record<string, unknown>>(values: T, locks: Partial<Record<keyof T, FieldLock>>): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([field]) => !locks[field as keyof T]?.locked)) as Partial<T>;
}
