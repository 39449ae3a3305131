import * as sqlite3 from 'sqlite3';
import { sqliteDriver } from './sqlite-driver';

describe('sqliteDriver', () => {
  it('is the sqlite3 module whose verbose() switches nothing on', () => {
    const driver = sqliteDriver();
    expect(driver['verbose']).toBeInstanceOf(Function);
    expect((driver['verbose'] as () => unknown)()).toBe(driver);
    expect(driver['Database']).toBe(sqlite3.Database);
    expect(driver['OPEN_READONLY']).toBe(sqlite3.OPEN_READONLY);
  });

  it('takes a tuned connection class', () => {
    class Tuned extends sqlite3.Database {}
    expect(sqliteDriver(Tuned)['Database']).toBe(Tuned);
  });

  it('runs queries through the connection class it carries', async () => {
    const Database = sqliteDriver()['Database'] as typeof sqlite3.Database;
    const database = new Database(':memory:');
    const rows = await new Promise<unknown[]>((resolve, reject) => database.all('SELECT 1 AS one', [], (error, result) => (error ? reject(error) : resolve(result))));
    expect(rows).toEqual([{ one: 1 }]);
    await new Promise<void>((resolve) => database.close(() => resolve()));
  });
});
