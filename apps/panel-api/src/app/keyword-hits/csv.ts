/**
 * A cell a spreadsheet may run as a formula (OWASP CSV injection): one that starts with = + - @ or
 * their full-width forms ＝ ＋ － ＠, also after leading white space (spreadsheets skip spaces,
 * tabs and line breaks, the ideographic space included), or that starts with a tab or line break.
 */
const FORMULA_START = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/;
/** A plain number, such as a negative chat id (-1001234567890): data, not a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180): a cell a spreadsheet would run as a formula gets a leading `'`, and a
 * field with a quote, comma or line break is quoted with inner quotes doubled.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && !PLAIN_NUMBER.test(text) && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF line ending. */
export function csvRecord(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The UTF-8 byte-order mark spreadsheets need to read UTF-8 CSV correctly. */
export const UTF8_BOM = '\uFEFF';
