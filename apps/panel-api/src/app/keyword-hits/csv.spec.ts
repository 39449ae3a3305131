import { csvField, csvRecord } from './csv';

describe('CSV fields', () => {
  it('quotes fields with quotes, commas and line breaks (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
  });

  it.each([
    '=1+1',
    '+1',
    '-2+3',
    '@SUM(A1)',
    '\tx',
    '\rx',
    '\nx',
    ' =1+1',
    '  @SUM(A1)',
    '\n=cmd|"/c calc"!A1',
    '\r\n+1',
    '\t-1',
    '\u3000=1',
    '＝1+1',
    '＋1',
    '－2',
    '＠SUM(A1)',
    ' ＝HYPERLINK("x")',
    '- 1',
    '-1e3',
  ])('escapes a cell that starts a formula: %j', (value) => {
    const field = csvField(value);
    expect(field.replace(/^"/, '').startsWith("'")).toBe(true);
    expect(field).toContain(value.replace(/"/g, '""'));
  });

  it('escapes and quotes at once, and ends records with CRLF', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvRecord(['a', 1, null, '=1'])).toBe("a,1,,'=1\r\n");
  });

  it('keeps numbers numeric: negative chat ids, as numbers or as text', () => {
    expect(csvRecord([-1001234567890, '-1001234567890', '-5', '12.5', '-0.5', 'text'])).toBe('-1001234567890,-1001234567890,-5,12.5,-0.5,text\r\n');
  });
});
