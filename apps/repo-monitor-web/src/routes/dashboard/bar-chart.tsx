import { Group, Stack, Text, VisuallyHidden } from '@mantine/core';

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
 * with the figures as a table for screen readers. The space is reserved before data arrives.
 */
export function StackedBarChart({ title, days, series, dayLabel }: { title: string; days: readonly BarDay[]; series: readonly BarSeries[]; dayLabel: string }) {
  const totals = days.map((day) => series.reduce((sum, entry) => sum + (day.values[entry.key] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = 280;
  const height = 120;
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} role="img" aria-hidden="true" preserveAspectRatio="none">
        <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} stroke="var(--mantine-color-default-border)" />
        {days.map((day, index) => {
          let y = height;
          return (
            <g key={day.date}>
              <title>{`${day.date}: ${totals[index]}`}</title>
              {series.map((entry) => {
                const value = day.values[entry.key] ?? 0;
                const h = (value / max) * (height - 4);
                y -= h;
                return value > 0 ? <rect key={entry.key} x={index * slot + (slot - bar) / 2} y={y} width={bar} height={h} fill={entry.color} /> : null;
              })}
            </g>
          );
        })}
      </svg>
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
