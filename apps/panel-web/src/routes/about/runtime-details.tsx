import { Stack, Text } from '@mantine/core';
import { formatDateTime } from '@shared/web-ui';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatBytes } from './format';

/** The scheduler lock's explanations (SystemJobGate.describe) by the words the service uses. */
const GATE_MESSAGES: Record<string, string> = {
  'no scheduler lock in use': 'noLock',
  'jobs run only on the holder of .scheduler.lock': 'lockHolder',
  'scheduler lock disabled (APP_SCHEDULER_LOCK=0)': 'lockOff',
};

/** Detail keys whose values are codes with a translation of their own. */
const CODED_VALUES = new Set(['destination', 'state', 'reason']);

/** Objects whose keys are names (accounts), not detail keys to translate. */
const NAMED_CHILDREN = new Set(['accounts']);

/** A detail key in the page's language; one this version does not know reads as words, not as `snake_case`. */
export function detailLabel(t: TFunction, key: string): string {
  const words = key.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return t(`about.keys.${key}`, { defaultValue: words.charAt(0).toUpperCase() + words.slice(1) });
}

const IDENTIFIERS = new Set(['pid', 'port']);

/** A detail's value as text: times in the configured zone, sizes in bytes, codes and yes/no translated. */
export function detailText(t: TFunction, key: string, value: string | number | boolean | null | undefined, timeZone: string, language: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  if (typeof value === 'number') {
    if (key.endsWith('_bytes')) return formatBytes(value);
    // An identifier (a process id, a port) is not a quantity: no thousands separator.
    return IDENTIFIERS.has(key) ? String(value) : new Intl.NumberFormat(language).format(value);
  }
  // The scheduler's own jobs by what they do, as on the dashboard.
  if (key === 'job') return t(`codes.job.${value}`, { defaultValue: value });
  if (key === 'gate') return GATE_MESSAGES[value] ? t(`about.values.gate.${GATE_MESSAGES[value]}`) : value;
  if (CODED_VALUES.has(key)) return t(`about.values.${key}.${value}`, { defaultValue: value });
  if ((key === 'at' || key.endsWith('_at')) && !Number.isNaN(Date.parse(value))) return formatDateTime(value, timeZone);
  return value;
}

type Detail = string | number | boolean | null | undefined | Detail[] | { [key: string]: Detail };

/** A component's details as labelled lines; nested objects (the lock, the last run, each account) indented. */
export function RuntimeDetails({ details, timeZone }: { details: Record<string, unknown>; timeZone: string }) {
  return (
    <Stack gap={2} mt={4}>
      {Object.entries(details).map(([key, value]) => (
        <DetailLine key={key} name={key} value={value as Detail} timeZone={timeZone} />
      ))}
    </Stack>
  );
}

function DetailLine({ name, label, value, timeZone }: { name: string; label?: string; value: Detail; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const title = label ?? detailLabel(t, name);
  const nested = (entries: [string, Detail][], named: boolean) => (
    <div>
      <Text size="xs" c="dimmed">
        {title}
      </Text>
      <Stack gap={2} pl="sm" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
        {entries.map(([key, child]) => (
          <DetailLine key={key} name={named ? '' : key} label={named ? key : undefined} value={child} timeZone={timeZone} />
        ))}
      </Stack>
    </div>
  );
  if (Array.isArray(value) && value.some((item) => item !== null && typeof item === 'object')) {
    return nested(value.map((item, index) => [String(index + 1), item]), true);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    return nested(Object.entries(value), NAMED_CHILDREN.has(name));
  }
  const text = Array.isArray(value)
    ? value.length
      ? value.map((item) => detailText(t, name, item as string | number | boolean | null, timeZone, i18n.language)).join(', ')
      : t('about.noneListed')
    : value !== null && typeof value === 'object'
      ? t('about.noneListed')
      : detailText(t, name, value, timeZone, i18n.language);
  return (
    <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
      <Text span size="xs" c="dimmed">
        {title}
      </Text>{' '}
      {text}
    </Text>
  );
}
