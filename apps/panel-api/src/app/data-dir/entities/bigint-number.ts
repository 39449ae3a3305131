/** A `bigint` column read as a JS number (PostgreSQL's driver reads bigint as text); counters and epoch milliseconds stay far below 2^53. */
export const BIGINT_NUMBER = {
  to: (value: number): number => value,
  from: (value: string | number): number => Number(value),
};
