import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRun, cutRound, killRound, openRun, type FaultRun } from '../faults/rounds.js';
import { testDatabases } from './helpers.js';

/**
 * Issue 11, the CI-sized fault run (`npm run bench:faults` runs the long one): a real server process
 * under tariff imports (tables and rate sheets of a few thousand rows) and request creations, killed
 * with SIGKILL after a random delay and started again on the same data, twice per database; on
 * PostgreSQL also a stretch of backend terminations. The delays are random (the seed is printed); the
 * checks hold for any delay (tests/faults/checks.ts): no partial set, sheet or request, every
 * acknowledged write there, no orphaned row or file, integrity and foreign keys clean, and after the
 * cuts the process alive, every call answered, the next calls served.
 */
const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILL_ROUNDS = 2;

for (const kind of testDatabases()) {
  describe(`faults [${kind}]`, () => {
    let run: FaultRun;
    beforeAll(async () => {
      console.log(`faults [${kind}]: seed ${SEED} (FAULT_SEED=${SEED} repeats the delays and sizes)`);
      run = await openRun(kind, SEED, process.env.TEST_DATABASE_URL);
    }, 120_000);
    afterAll(async () => {
      if (run) await closeRun(run);
    });

    it('kill -9 during imports and request creations: after the restart every check holds', async () => {
      for (let round = 1; round <= KILL_ROUNDS; round++) {
        // The first kill lands at a random moment, the second inside a write transaction (or just after it).
        const o = await killRound(run, round, 1500, round === 1 ? 'random' : 'inTransaction');
        console.log(
          `faults [${kind}] round ${round}: ${o.aim} kill at ${o.delayMs} ms (${o.openAtKill} write transactions open), ${o.acked} acknowledged, ${o.inFlight.length} under way (${o.committedInFlight} committed), orphan files ${o.orphansBefore.length} → ${o.orphansAfter.length}`,
        );
        expect(o.problems).toEqual([]);
        expect(o.orphansAfter).toEqual([]);
      }
      // Something must have been acknowledged over the rounds, or "acknowledged writes are there" checked
      // nothing: a first kill drawn early on a busy machine can land before the first answer (CI saw
      // 662 ms with 6 writes under way), so more rounds killed at 1.5–4 s follow until one was.
      for (let extra = 1; extra <= 3 && !run.ops.some((o) => o.state === 'acked'); extra++) {
        const o = await killRound(run, KILL_ROUNDS + extra, 4000, 'random', 1500);
        console.log(`faults [${kind}] extra round ${extra}: kill at ${o.delayMs} ms, ${o.acked} acknowledged`);
        expect(o.problems).toEqual([]);
        expect(o.orphansAfter).toEqual([]);
      }
      expect(run.ops.filter((o) => o.state === 'acked').length).toBeGreaterThan(0);
    }, 180_000);

    if (kind === 'postgres')
      it('backends terminated mid-transaction: clean errors, no partial rows, the server serves on', async () => {
        const o = await cutRound(run, KILL_ROUNDS + 1, 2500, 3);
        const states = o.ops.reduce<Record<string, number>>((m, x) => ((m[x.state] = (m[x.state] ?? 0) + 1), m), {});
        console.log(`faults [${kind}] cuts: ${o.terminations} backends terminated ${JSON.stringify(o.byState)}, calls ${JSON.stringify(states)}`);
        expect(o.crashed).toBe(false);
        expect(o.terminations).toBeGreaterThanOrEqual(3);
        expect(o.problems).toEqual([]);
      }, 120_000);
  });
}
