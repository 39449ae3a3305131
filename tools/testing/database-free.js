// e2e specs that prove something of the HTTP layer alone (routes, headers, body and time bounds,
// static files, the outbound guard) say so in their first line:
//
//   // Database-free: <what the spec proves, and why no database is involved>
//
// They run on SQLite only. On PostgreSQL they would repeat the same requests against the same code
// and prove nothing new about either database, at the price of booting the service once more per
// spec (module loading alone is about 3 CPU-seconds a file). Every spec that reads or writes through
// the database still runs on both.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const MARKER = /^\/\/ Database-free: \S/;

/** testPathIgnorePatterns for an e2e config: the database-free specs of `testDir` when the run is on PostgreSQL. */
function databaseFreeOnPostgres(testDir) {
  if (process.env.TEST_DATABASE_DRIVER !== 'postgres') return [];
  return readdirSync(testDir)
    .filter((name) => name.endsWith('.e2e-spec.ts') && MARKER.test(readFileSync(join(testDir, name), 'utf8').split('\n', 1)[0]))
    .map((name) => `/${name.replace(/\./g, '\\.')}$`);
}

module.exports = { databaseFreeOnPostgres };
