import { renderWithProviders } from '@shared/web-ui/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../../i18n/all';
import { chartScale, labelEvery, SignChart, verdictCounts } from './sign-chart';

const day = (date: string, success: number, failure: number, hits: number) => ({ day: date, success, failure, already_done: 0, unconfirmed: 0, keyword_hits: hits });

describe('sign chart', () => {
  it('picks a round top for the y axis that holds the tallest bar', () => {
    expect(chartScale([])).toEqual({ top: 2, ticks: [0, 1, 2] });
    expect(chartScale([day('2026-11-24', 3, 4, 0)]).top).toBe(10);
    expect(chartScale([day('2026-11-24', 0, 0, 41)])).toEqual({ top: 50, ticks: [0, 25, 50] });
    expect(chartScale([day('2026-11-24', 150, 0, 0)]).top).toBe(200);
  });

  it('labels fewer days when narrow', () => {
    expect(labelEvery(1000, 14)).toBe(1);
    expect(labelEvery(330, 14)).toBe(2);
  });

  it('splits the runs by verdict: already done out of the successes, unconfirmed out of the failures', () => {
    expect(verdictCounts({ ...day('2026-11-24', 5, 4, 0), already_done: 2, unconfirmed: 3 })).toEqual({ success: 3, already_done: 2, failed: 1, unconfirmed: 3 });
    expect(verdictCounts(day('2026-11-24', 1, 0, 9))).toEqual({ success: 1, already_done: 0, failed: 0, unconfirmed: 0 });
  });

  it('gives screen readers the figures by verdict as a table', () => {
    renderWithProviders(
      <SignChart days={[{ ...day('2026-11-23', 5, 3, 7), already_done: 2, unconfirmed: 1 }, day('2026-11-24', 2, 0, 0)]} />,
      { resources: { en, zh } },
    );
    const table = screen.getByRole('table', { name: en.dashboard.chartCaption });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      en.dashboard.day,
      en.dashboard.success,
      en.dashboard.alreadyDone,
      en.dashboard.failure,
      en.dashboard.unconfirmed,
      en.dashboard.hits,
    ]);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['3', '2', '2', '1', '7']);
    expect(within(rows[2]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['2', '0', '0', '0', '0']);
  });
});
