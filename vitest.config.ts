import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import LongestFirst from './tests/setup/sequencer';

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
    // The longest files first, also in a clean clone (tests/setup/sequencer.ts, tests/durations.json).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/jsdom.ts'],
          // One jsdom and module graph per worker instead of per file: the files leave no state behind (they
          // passed in shuffled orders). 94 s CPU and 103 s wall → 31 s CPU and 46 s wall (47 files, back to back).
          isolate: false,
        },
      },
      {
        test: {
          name: 'unit-node',
          environment: 'node',
          include: ['server/**/*.test.ts', 'model/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          // The migrated and seeded databases every portal copies (tests/setup/portalTemplate.ts).
          globalSetup: ['tests/setup/globalSetup.ts'],
          // Passwords and codes hashed at the tests' cost (tests/setup/testHashing.ts).
          setupFiles: ['tests/setup/testHashing.ts'],
          // The files share a worker's modules (the server is imported once per worker, not per file): the
          // server keeps its state per app and database (WeakMaps), the tests mock nothing. With the templates:
          // import 174 s → 20 s, CPU 437 s → 254 s (60 files on SQLite and PostgreSQL, under the same load).
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
          setupFiles: ['tests/setup/testHashing.ts'],
          // One module graph per worker for its files (not isolated), each file connecting to the run's Chromium
          // (globalSetup) with contexts of its own, signing in through the API (harness.ts `signIn`). Two files at a
          // time (three since the eighth round, below), after the unit and API files (groupOrder 1): a browser file mostly waits (for the page, for its
          // server in the same worker, for Chromium), so one file at a time left the two cores idle most of the
          // run: 264 s of CPU (Chromium included) in 1 068 s of wall time (43 files, `/usr/bin/time`). Each file
          // has its own portal (port, database copy, data folder); the pages ask for reduced motion.
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page's state is waited for (`expect.poll`) up to 10 s, not Vitest's 1 s: a condition met at once costs
          // nothing more, one met under the load of other files no longer fails (postalSurcharges did, four files at a time).
          expect: { poll: { timeout: 10_000 } },
          // Three files at a time since the eighth round of issue 37: Chromium is about three quarters of this project's
          // CPU, and with two files the two cores were busy 1.6 on average (each file also waits: for its page, its
          // server, a settled screen). The browser project alone, back to back on the CI machine: 367 s wall and 576
          // core-s with two, 338 s and 638 core-s with three (docs/benchmarks.md, "Eighth round").
          maxWorkers: Number(process.env.BROWSER_WORKERS || 3),
          // The files that time something on the page ran alone after the others (a `browser-timed` project, ~70 s
          // with one core idle): accounts (a message's 2 s, now measured by the page itself, and a 10 s countdown,
          // now run through on the page's clock), shell (back at the sign-in screen within 5 s), hostileUpload (a
          // refusal within 15 s) and liveEvents (a pushed message within 3 s). Their bounds are several times what
          // the page takes beside one other file; they run with the others.
        },
      },
    ],
  },
});
