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

  it.each(['=1+1', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])('escapes a cell that starts a formula: %j', (value) => {
    const field = csvField(value);
    expect(field.replace(/^"/, '').startsWith("'")).toBe(true);
    expect(field).toContain(value.replace(/"/g, '""'));
  });

  it('escapes and quotes at once, and ends records with CRLF', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvRecord(['a', 1, null, '-100'])).toBe("a,1,,'-100\r\n");
  });
});
