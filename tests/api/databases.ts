import path from 'node:path';

/**
 * Which API test files run their PostgreSQL half (issue 37 item 3: "run the PostgreSQL half of the API tests
 * only for files that touch the database layer's differences").
 *
 * The default is both databases: a file not listed below runs on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL. A file is listed here only when what it checks is decided before or outside any query — the
 * HTTP layer, the upload layer, headers, logs, the OpenAPI document — so its PostgreSQL half ran the same
 * code on the same inputs and could not meet a difference of the two databases (types, integer widths,
 * dates and zones, collation and LIKE, concurrency and locks, transactions, sequences, LISTEN/NOTIFY). Each
 * entry says why. A file that writes rows whose outcome depends on the database (a counter, a race, a search,
 * a date, a large number reaching a column) stays on both, however slow its PostgreSQL half
 * (malformedInput's numbers past every edge reach int4 columns on PostgreSQL only; securitySweep's foreign
 * ids reach both databases' lookups).
 *
 * TEST_ALL_DATABASES=1 runs every file on both (`npm run test:all-databases`): run it when the database layer
 * changes (server/db, migrations, Kysely, pg or better-sqlite3 versions).
 */
export const SQLITE_ONLY: Record<string, string> = {
  'hostileUploads.test.ts':
    'hostile files are refused by the upload layer (declared sizes, archive ratios, formats) before a row or a file is written; the rows-unchanged checks read the same tables on both',
  'imageUploads.test.ts': "images are refused from their header's declared pixel size before they are stored",
  'invisibleCharacters.test.ts': "the body guard (plugins/inputGuards.ts) refuses a field before the route's handler runs a query",
  'trustProxy.test.ts': 'which forwarded address and protocol are believed is decided per request from the headers and TRUST_PROXY',
  'securityHeaders.test.ts': 'the headers every kind of answer carries',
  'logRedaction.test.ts': 'what the request log writes of a URL and its headers',
  'openapi.test.ts': 'the served document, built from the declarations and the route schemas',
  'generatedClient.test.ts': "a client typed from the served document (the calls' database behaviour is the other files')",
};

/** Whether the API test file at `file` runs its PostgreSQL half (given TEST_DATABASE_URL). */
export function postgresHalf(file: string | undefined): boolean {
  if (process.env.TEST_ALL_DATABASES === '1' || !file) return true;
  return !(path.basename(file) in SQLITE_ONLY);
}
