import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SQLITE_ONLY, postgresHalf } from './databases.js';
import { testDatabases } from './helpers.js';

// Collected as the file is: the databases this very file (not listed) is given.
const mine = testDatabases();

describe('the PostgreSQL half of the API tests (tests/api/databases.ts)', () => {
  it('every file listed SQLite-only exists and says why', () => {
    for (const [file, why] of Object.entries(SQLITE_ONLY)) {
      expect(fs.existsSync(path.join('tests/api', file)), file).toBe(true);
      expect(why.length, file).toBeGreaterThan(20);
    }
  });

  it('a file not listed runs on both databases when TEST_DATABASE_URL is set, a listed one on SQLite only', () => {
    expect(mine).toEqual(process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']);
    expect(postgresHalf('/x/tests/api/trustProxy.test.ts')).toBe(process.env.TEST_ALL_DATABASES === '1');
    expect(postgresHalf('/x/tests/api/transportRequests.test.ts')).toBe(true);
    expect(postgresHalf(undefined)).toBe(true);
  });
});
