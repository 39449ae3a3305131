import { Center, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';

export interface BarSeries {
  key: string;
  label: string;
  color: string;
}

export interface BarDay {
  date: string;
  values: Record<string, number>;
}

/**
 * Stacked bars per day in plain SVG (no chart library: it would be most of the page's JavaScript),
 * with a value axis (0, half, the highest day), a readout of the day under the pointer, "no data"
 * when every day is zero, and the figures as a table for screen readers. The space is reserved
 * before data arrives.
 */
export function StackedBarChart({
  title,
  days,
  series,
  dayLabel,
  noData,
}: {
  title: string;
  days: readonly BarDay[];
  series: readonly BarSeries[];
  dayLabel: string;
  /** Shown instead of the bars when every day is zero. */
  noData: string;
}) {
  const [hovered, setHovered] = useState<number | undefined>(undefined);
  const totals = days.map((day) => series.reduce((sum, entry) => sum + (day.values[entry.key] ?? 0), 0));
  const highest = Math.max(0, ...totals);
  // A round top for the axis (2, 4, 10, 20, 40, 100...) at or above the highest day.
  const max = niceCeiling(highest);
  const width = 280;
  const height = 120;
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const shown = hovered !== undefined ? days[hovered] : undefined;
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {highest === 0 ? (
        <Center h={height} style={{ border: '1px dashed var(--mantine-color-default-border)', borderRadius: 4 }}>
          <Text size="sm" c="dimmed">
            {noData}
          </Text>
        </Center>
      ) : (
        <Group gap={4} wrap="nowrap" align="stretch">
          <Stack justify="space-between" gap={0} h={height} aria-hidden="true" style={{ flexShrink: 0, textAlign: 'right' }}>
            <Text size="xs" c="dimmed" lh={1}>
              {max}
            </Text>
            <Text size="xs" c="dimmed" lh={1}>
              {max / 2}
            </Text>
            <Text size="xs" c="dimmed" lh={1}>
              0
            </Text>
          </Stack>
          <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} aria-hidden="true" preserveAspectRatio="none" onMouseLeave={() => setHovered(undefined)} style={{ minWidth: 0 }}>
            <line x1={0} x2={width} y1={0.5} y2={0.5} stroke="var(--mantine-color-default-border)" strokeDasharray="2 3" />
            <line x1={0} x2={width} y1={height / 2} y2={height / 2} stroke="var(--mantine-color-default-border)" strokeDasharray="2 3" />
            <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} stroke="var(--mantine-color-default-border)" />
            {days.map((day, index) => {
              let y = height;
              return (
                <g key={day.date} onMouseEnter={() => setHovered(index)}>
                  <title>{`${day.date}: ${totals[index]}`}</title>
                  <rect x={index * slot} y={0} width={slot} height={height} fill={hovered === index ? 'var(--mantine-color-default-hover)' : 'transparent'} />
                  {series.map((entry) => {
                    const value = day.values[entry.key] ?? 0;
                    const h = (value / max) * (height - 1);
                    y -= h;
                    return value > 0 ? <rect key={entry.key} x={index * slot + (slot - bar) / 2} y={y} width={bar} height={h} fill={entry.color} /> : null;
                  })}
                </g>
              );
            })}
          </svg>
        </Group>
      )}
      <Text size="xs" aria-hidden="true" style={{ minHeight: '1.2em' }}>
        {shown ? `${shown.date}: ${series.map((entry) => `${entry.label} ${shown.values[entry.key] ?? 0}`).join(' · ')}` : ''}
      </Text>
      <Group gap="sm" justify="space-between" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {days[0]?.date ?? ''}
        </Text>
        <Text size="xs" c="dimmed">
          {days[days.length - 1]?.date ?? ''}
        </Text>
      </Group>
      <Group gap="xs" wrap="wrap">
        {series.map((entry) => (
          <Group key={entry.key} gap={4} wrap="nowrap">
            <svg width={10} height={10} aria-hidden="true">
              <rect width={10} height={10} fill={entry.color} />
            </svg>
            <Text size="xs">{entry.label}</Text>
          </Group>
        ))}
      </Group>
      <VisuallyHidden>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{dayLabel}</th>
              {series.map((entry) => (
                <th key={entry.key} scope="col">
                  {entry.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                {series.map((entry) => (
                  <td key={entry.key}>{day.values[entry.key] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Stack>
  );
}

/** The smallest of 1, 2, 4 × 10^n at or above `value`, at least 2: a round top whose half is a whole number. */
export function niceCeiling(value: number): number {
  if (value <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 4, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
