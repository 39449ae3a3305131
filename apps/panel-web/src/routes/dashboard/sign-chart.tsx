import { Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';

const HEIGHT = 220;
const AXIS_WIDTH = 36;
const LABEL_HEIGHT = 20;
const TOP = 8;
const COLORS = {
  success: 'var(--mantine-color-teal-7)',
  already_done: 'var(--mantine-color-teal-3)',
  failed: 'var(--mantine-color-red-7)',
  unconfirmed: 'var(--mantine-color-orange-4)',
  hits: 'var(--mantine-color-indigo-4)',
} as const;

type Verdict = 'success' | 'already_done' | 'failed' | 'unconfirmed';
const VERDICTS: readonly Verdict[] = ['success', 'already_done', 'failed', 'unconfirmed'];

/**
 * A day's runs by the verdict of the bot's answer: the service counts `already_done` among the
 * successes and `unconfirmed` among the failures, so each is taken out of its total here.
 */
export function verdictCounts(day: Schemas['DayCountDto']): Record<Verdict, number> {
  const alreadyDone = Math.min(day.already_done, day.success);
  const unconfirmed = Math.min(day.unconfirmed, day.failure);
  return { success: day.success - alreadyDone, already_done: alreadyDone, failed: day.failure - unconfirmed, unconfirmed };
}

/** A round upper bound for the y axis and its ticks (0, half, top), never below 1. */
export function chartScale(days: readonly Schemas['DayCountDto'][]): { top: number; ticks: number[] } {
  const largest = Math.max(1, ...days.map((day) => Math.max(day.success + day.failure, day.keyword_hits)));
  const magnitude = 10 ** Math.floor(Math.log10(largest));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate * 2 >= largest) ?? 10 * magnitude;
  const top = largest <= 2 ? 2 : step * 2;
  return { top, ticks: [0, top / 2, top] };
}

/** Which day labels fit: every one on a wide chart, every second or third on a phone. */
export function labelEvery(width: number, count: number): number {
  const perLabel = 40;
  return Math.max(1, Math.ceil((count * perLabel) / Math.max(1, width - AXIS_WIDTH)));
}

/**
 * Sign-ins per day stacked by verdict (success, already done, failed, unconfirmed) beside keyword
 * hits per day, drawn as SVG.
 * Drawn here rather than with a chart library: Mantine charts on recharts cost 120 KB of gzip JS
 * (as much as React DOM, Mantine core and the router together) and the longest task of the page's
 * load, for fourteen pairs of bars. Screen readers get the same figures as a table.
 */
export function SignChart({ days }: { days: Schemas['DayCountDto'][] }) {
  const { t } = useTranslation();
  const { ref, width } = useElementSize();
  const { top, ticks } = chartScale(days);
  const plotHeight = HEIGHT - TOP - LABEL_HEIGHT;
  const slot = days.length ? Math.max(0, width - AXIS_WIDTH) / days.length : 0;
  const barWidth = Math.max(2, Math.min(18, slot * 0.32));
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const every = labelEvery(width, days.length);
  const verdictLabel: Record<Verdict, string> = {
    success: t('dashboard.success'),
    already_done: t('dashboard.alreadyDone'),
    failed: t('dashboard.failure'),
    unconfirmed: t('dashboard.unconfirmed'),
  };
  const series = [...VERDICTS.map((key) => ({ key, label: verdictLabel[key], color: COLORS[key] })), { key: 'hits', label: t('dashboard.hits'), color: COLORS.hits }];
  return (
    <figure style={{ margin: 0 }}>
      <figcaption className="visually-hidden">{t('dashboard.chartCaption')}</figcaption>
      <div ref={ref} style={{ height: HEIGHT, width: '100%' }}>
        {width > 0 ? (
          <svg width={width} height={HEIGHT} aria-hidden="true" focusable="false" style={{ display: 'block', fontSize: 11 }}>
            {ticks.map((tick) => (
              <g key={tick}>
                <line x1={AXIS_WIDTH} x2={width} y1={y(tick)} y2={y(tick)} stroke="var(--mantine-color-default-border)" strokeDasharray={tick ? '3 3' : undefined} />
                <text x={AXIS_WIDTH - 6} y={y(tick)} dy="0.32em" textAnchor="end" fill="var(--mantine-color-dimmed)">
                  {tick}
                </text>
              </g>
            ))}
            {days.map((day, index) => {
              const center = AXIS_WIDTH + slot * (index + 0.5);
              const runsX = center - barWidth - 1;
              const hitsX = center + 1;
              const counts = verdictCounts(day);
              let below = 0;
              const segments = VERDICTS.map((verdict) => {
                const from = below;
                below += counts[verdict];
                return { verdict, from, to: below };
              }).filter((segment) => segment.to > segment.from);
              return (
                <g key={day.day}>
                  <title>{`${day.day}: ${VERDICTS.map((verdict) => `${verdictLabel[verdict]} ${counts[verdict]}`).join(', ')}, ${t('dashboard.hits')} ${day.keyword_hits}`}</title>
                  {segments.map((segment) => (
                    <rect key={segment.verdict} x={runsX} width={barWidth} y={y(segment.to)} height={y(segment.from) - y(segment.to)} fill={COLORS[segment.verdict]} />
                  ))}
                  {day.keyword_hits ? <rect x={hitsX} width={barWidth} y={y(day.keyword_hits)} height={y(0) - y(day.keyword_hits)} fill={COLORS.hits} /> : null}
                  {index % every === 0 ? (
                    <text x={center} y={HEIGHT - 4} textAnchor="middle" fill="var(--mantine-color-dimmed)">
                      {day.day.slice(5)}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </svg>
        ) : null}
      </div>
      <Group gap="md" justify="center" mt={4} aria-hidden="true">
        {series.map((entry) => (
          <Group key={entry.key} gap={6} wrap="nowrap">
            <span style={{ width: 10, height: 10, borderRadius: 2, background: entry.color, display: 'inline-block' }} />
            <Text size="xs">{entry.label}</Text>
          </Group>
        ))}
      </Group>
      <table className="visually-hidden">
        <caption>{t('dashboard.chartCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('dashboard.day')}</th>
            {series.map((entry) => (
              <th key={entry.key} scope="col">
                {entry.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day) => {
            const counts = verdictCounts(day);
            return (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                {VERDICTS.map((verdict) => (
                  <td key={verdict}>{counts[verdict]}</td>
                ))}
                <td>{day.keyword_hits}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}
