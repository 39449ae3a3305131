import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { checkCodeLabel } from '../../components/codes';
import type { Account } from './accounts-api';

const STATUS_COLORS: Record<string, string> = { connected: 'teal', invalid: 'red', checking: 'blue', error: 'orange', not_found: 'gray', unchecked: 'gray' };

/** The account's status as a translated badge (null: never checked, e.g. after an import). */
export function StatusBadge({ status }: { status: Account['status'] }) {
  const { t } = useTranslation();
  const key = status ?? 'unchecked';
  const known = key in STATUS_COLORS;
  return (
    <Badge color={STATUS_COLORS[key] ?? 'gray'} variant="light">
      {known ? t(`accounts.status.${key}`) : t('accounts.status.unknown')}
    </Badge>
  );
}

/** A status check's result code, translated (an unknown code reads as "other problem"). */
export function useCheckCode(): (code: string) => string {
  const { t } = useTranslation();
  return (code) => checkCodeLabel(t, code);
}
