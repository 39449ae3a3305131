/** Characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180): a cell a spreadsheet would run as a formula gets a leading `'`, and a
 * field with a quote, comma or line break is quoted with inner quotes doubled.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF line ending. */
export function csvRecord(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The UTF-8 byte-order mark spreadsheets need to read UTF-8 CSV correctly. */
export const UTF8_BOM = '\uFEFF';
