import { joinSql, rawSql, renderSql, sql } from './sql';

describe('sql', () => {
  const at = new Date('2026-11-20T08:30:00.250Z');
  const claim = sql`UPDATE "t" SET "until" = ${at} WHERE "id" IN (${[3, 4]}) AND "ok" = ${true} ${rawSql('FOR UPDATE')} AND "k" = ${'x'}`;

  it('numbers parameters for PostgreSQL, in order, through lists', () => {
    expect(renderSql(claim, 'postgres')).toEqual({
      text: 'UPDATE "t" SET "until" = $1 WHERE "id" IN ($2, $3) AND "ok" = $4 FOR UPDATE AND "k" = $5',
      parameters: ['2026-11-20T08:30:00.250Z', 3, 4, true, 'x'],
    });
  });

  it('uses ? on SQLite, with times in the stored format and booleans as 1/0', () => {
    expect(renderSql(claim, 'sqlite')).toEqual({
      text: 'UPDATE "t" SET "until" = ? WHERE "id" IN (?, ?) AND "ok" = ? FOR UPDATE AND "k" = ?',
      parameters: ['2026-11-20 08:30:00.250', 3, 4, 1, 'x'],
    });
  });

  it('inlines fragments, continuing their numbering', () => {
    const where = sql`"a" = ${1} AND "b" = ${null}`;
    expect(renderSql(sql`SELECT 1 WHERE ${where} AND "c" = ${'z'}`, 'postgres')).toEqual({
      text: 'SELECT 1 WHERE "a" = $1 AND "b" = $2 AND "c" = $3',
      parameters: [1, null, 'z'],
    });
  });

  it('joins rows of values, numbering across them', () => {
    const rows = joinSql([sql`(${['a', 1]})`, sql`(${['b', 2]})`], ', ');
    expect(renderSql(sql`INSERT INTO "t" VALUES ${rows}`, 'postgres')).toEqual({
      text: 'INSERT INTO "t" VALUES ($1, $2), ($3, $4)',
      parameters: ['a', 1, 'b', 2],
    });
  });

  it('never splices a value into the text', () => {
    const hostile = `'; DROP TABLE "events"; --`;
    expect(renderSql(sql`SELECT ${hostile}`, 'sqlite')).toEqual({ text: 'SELECT ?', parameters: [hostile] });
  });

  it('refuses an empty list rather than render IN ()', () => {
    expect(() => renderSql(sql`SELECT 1 WHERE "id" IN (${[]})`, 'postgres')).toThrow('empty list');
  });
});
