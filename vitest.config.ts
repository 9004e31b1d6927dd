import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Three projects: `unit` (browser code in jsdom, and pure server code), `api` (the server through
 * inject, on SQLite and, with TEST_DATABASE_URL, PostgreSQL) and `browser` (Chromium driving the built
 * app served by the real server). `npm test` runs them all (scripts/test.mjs).
 */
export default defineConfig({
  test: {
    // Two workers on the CI machine's two cores (Vitest's default keeps one core free, which leaves the API
    // tests, mostly waiting on SQLite and PostgreSQL I/O, one at a time: 306 s against 218 s). The browser
    // project runs one file at a time (fileParallelism below), in a group Vitest starts after every other
    // file. Tried in parallel with the API files on the two workers: the whole run went from about 710 s
    // to 1 040 s (Chromium and the API workers fight for two cores) and timing-bound browser tests failed.
    maxWorkers: 2,
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'model/**/*.test.ts'],
          setupFiles: ['tests/setup/jsdom.ts'],
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/setup/globalSetup.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/setup/globalSetup.ts'],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
