/**
 * `npm run bench:faults` (issue 11): a real server process under tariff imports and request creations,
 * killed with SIGKILL at random moments and started again on the same data, many times; on PostgreSQL
 * also its backends terminated mid-transaction; and first starts killed while they migrate. After each
 * fault the data is checked (tests/faults/checks.ts): no partial tariff set or rate sheet, no half-written
 * request, every acknowledged write present, no orphaned row, SQLite integrity_check and
 * foreign_key_check clean, every referenced file on disk, unreferenced files swept at the next start.
 *
 * FAULT_DB=sqlite|postgres|both (default both), FAULT_ROUNDS kills per database (default 40),
 * FAULT_CUT_ROUNDS stretches of connection cuts (default 10, FAULT_CUT_MS each, default 4000),
 * FAULT_STARTUP_ROUNDS killed first starts per database (default 10), FAULT_SEED to repeat a run,
 * FAULT_PG_URL (default postgres://postgres@127.0.0.1:5432/test). Exit code 1 when any check fails.
 *
 * Webhooks (issue 23, tests/faults/webhooks.ts): FAULT_WEBHOOK_ROUNDS kills per database (default 10) while
 * status changes and bookings burst and a local receiver listens; then every committed change must have
 * been delivered at least once, in order per request, and nothing sent for a change that rolled back.
 */
import os from 'node:os';
import { closeRun, cutRound, killRound, openRun, startupKillRound, type KillOutcome } from '../tests/faults/rounds.js';
import { rng } from '../tests/faults/workload.js';
import { webhookFaultRun } from '../tests/faults/webhooks.js';

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 40);
const CUT_ROUNDS = Number(process.env.FAULT_CUT_ROUNDS ?? 10);
const CUT_MS = Number(process.env.FAULT_CUT_MS ?? 4000);
const STARTUP_ROUNDS = Number(process.env.FAULT_STARTUP_ROUNDS ?? 10);
const WEBHOOK_ROUNDS = Number(process.env.FAULT_WEBHOOK_ROUNDS ?? 10);
const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PG_URL = process.env.FAULT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const which = process.env.FAULT_DB ?? 'both';
const dbs = (which === 'both' ? ['sqlite', 'postgres'] : [which]) as Array<'sqlite' | 'postgres'>;

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
const kinds = (ops: Array<{ kind: string }>) =>
  Object.entries(ops.reduce<Record<string, number>>((m, o) => ((m[o.kind] = (m[o.kind] ?? 0) + 1), m), {}))
    .map(([k, n]) => `${n} ${k}`)
    .join(', ') || '-';

async function kills(kind: 'sqlite' | 'postgres', seed: number) {
  console.log(`\n== ${kind}: ${ROUNDS} kill rounds (seed ${seed}) ==`);
  const run = await openRun(kind, seed, PG_URL);
  const outcomes: KillOutcome[] = [];
  let maxDelay = 2000;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Odd rounds kill at a random moment, even ones aim inside a write transaction (rounds.ts, KillAim).
      const o = await killRound(run, round, maxDelay, round % 2 ? 'random' : 'inTransaction');
      outcomes.push(o);
      console.log(
        `round ${String(round).padStart(2)}  ${o.aim === 'random' ? 'random' : 'aimed '} kill at ${String(o.delayMs).padStart(4)} ms ${o.openAtKill > 0 ? 'inside a transaction ' : 'outside transactions'}  acked ${String(o.acked).padStart(2)}  in flight: ${kinds(o.inFlight)} (${o.committedInFlight} committed)  orphan files ${o.orphansBefore.length} → ${o.orphansAfter.length} after restart (${o.restartMs} ms)${o.problems.length ? `\n  PROBLEMS: ${o.problems.join('\n            ')}` : ''}`,
      );
      // Kills spread from before the first commit to after several: up to 2.5 × the median upload.
      const uploads = run.ops.filter((x) => x.state === 'acked' && (x.kind === 'tableUpload' || x.kind === 'sheetUpload')).map((x) => x.ms!);
      if (uploads.length) maxDelay = Math.min(6000, Math.max(500, 2.5 * median(uploads)));
    }
  } finally {
    await closeRun(run);
  }
  const inFlight = outcomes.flatMap((o) => o.inFlight);
  const committed = inFlight.filter((o) => o.committed).length;
  const acked = run.ops.filter((o) => o.state === 'acked');
  const summary = {
    rounds: outcomes.length,
    killsWithWritesInFlight: outcomes.filter((o) => o.inFlight.length).length,
    killsInsideATransaction: outcomes.filter((o) => o.openAtKill > 0).length,
    killsAfterACommitBeforeItsAnswer: outcomes.filter((o) => o.committedInFlight > 0).length,
    inFlight: inFlight.length,
    committed,
    rolledBack: inFlight.length - committed,
    importsInFlight: inFlight.filter((o) => o.kind === 'tableUpload' || o.kind === 'sheetUpload').length,
    importsCommitted: inFlight.filter((o) => (o.kind === 'tableUpload' || o.kind === 'sheetUpload') && o.committed).length,
    requestsInFlight: inFlight.filter((o) => o.kind === 'request').length,
    requestsCommitted: inFlight.filter((o) => o.kind === 'request' && o.committed).length,
    acked: acked.length,
    ackedImports: acked.filter((o) => o.kind === 'tableUpload' || o.kind === 'sheetUpload').length,
    ackedRequests: acked.filter((o) => o.kind === 'request').length,
    orphansBefore: outcomes.reduce((s, o) => s + o.orphansBefore.length, 0),
    orphansAfter: outcomes.reduce((s, o) => s + o.orphansAfter.length, 0),
    problems: outcomes.reduce((s, o) => s + o.problems.length, 0),
    medianRestartMs: median(outcomes.map((o) => o.restartMs)),
  };
  console.log(
    `${kind}: ${summary.rounds} kills (${summary.killsWithWritesInFlight} with writes under way, ${summary.killsInsideATransaction} inside an open write transaction); ${summary.inFlight} writes under way at a kill: ${summary.committed} committed before it (kill after the commit, before the answer), ${summary.rolledBack} rolled back (kill before or during the commit)`,
  );
  console.log(
    `  imports under way ${summary.importsInFlight} (${summary.importsCommitted} committed), requests under way ${summary.requestsInFlight} (${summary.requestsCommitted} committed); acknowledged writes checked: ${summary.acked} (${summary.ackedImports} imports, ${summary.ackedRequests} requests)`,
  );
  for (const aim of ['random', 'inTransaction'] as const) {
    const mine = outcomes.filter((o) => o.aim === aim);
    if (!mine.length) continue;
    const flight = mine.flatMap((o) => o.inFlight);
    console.log(
      `  ${aim === 'random' ? 'random kills' : 'kills aimed inside a write transaction'}: ${mine.length}, ${mine.filter((o) => o.openAtKill > 0).length} with a write transaction open at the kill; writes under way ${flight.length}: ${flight.filter((o) => o.committed).length} committed, ${flight.filter((o) => !o.committed).length} rolled back`,
    );
  }
  console.log(
    `  orphan files left by kills: ${summary.orphansBefore}, after the restarts: ${summary.orphansAfter}; median restart ${summary.medianRestartMs} ms; problems: ${summary.problems}`,
  );
  return summary.problems === 0 && summary.orphansAfter === 0;
}

async function cuts(seed: number) {
  console.log(`\n== postgres: ${CUT_ROUNDS} stretches of ${CUT_MS} ms of backend terminations (seed ${seed}) ==`);
  const run = await openRun('postgres', seed, PG_URL);
  let ok = true;
  let terminations = 0;
  const states: Record<string, number> = {};
  const answers: Record<string, number> = {};
  let inDoubt = 0;
  try {
    for (let round = 1; round <= CUT_ROUNDS && run.server.alive(); round++) {
      const o = await cutRound(run, round, CUT_MS);
      terminations += o.terminations;
      for (const [s, n] of Object.entries(o.byState)) states[s] = (states[s] ?? 0) + n;
      for (const op of o.ops) answers[op.state] = (answers[op.state] ?? 0) + 1;
      inDoubt += o.ops.filter((x) => x.state === 'failed' && x.committed).length;
      const byState = Object.entries(o.byState)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ');
      console.log(
        `stretch ${String(round).padStart(2)}  ${o.terminations} backends terminated (${byState})  calls: ${kinds(o.ops.map((x) => ({ kind: x.state })))}${o.problems.length ? `\n  PROBLEMS: ${o.problems.slice(0, 12).join('\n            ')}` : ''}`,
      );
      ok &&= o.problems.length === 0;
    }
  } finally {
    await closeRun(run);
  }
  console.log(
    `postgres cuts: ${terminations} backends terminated (${Object.entries(states)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}); calls ${Object.entries(answers)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}; ${inDoubt} answered 5xx yet committed (the cut hit after the commit)`,
  );
  return ok;
}

async function startups(kind: 'sqlite' | 'postgres', seed: number) {
  console.log(`\n== ${kind}: ${STARTUP_ROUNDS} first starts killed while migrating and seeding ==`);
  const random = rng(seed);
  let failed = 0;
  for (let i = 1; i <= STARTUP_ROUNDS; i++) {
    // Migrations take ~0.1 s, the reference data and demo set ~1 s more: half the kills land in the first.
    const delay = Math.round(random.next() < 0.5 ? random.next() * 150 : random.next() * 1500);
    const o = await startupKillRound(kind, delay, PG_URL);
    if (o.problems.length) failed++;
    console.log(
      `start ${String(i).padStart(2)}  killed ${String(delay).padStart(4)} ms into the migration (${o.tablesAtKill} tables)  ${o.problems.length ? `PROBLEMS: ${o.problems.join(' | ')}` : 'restart ok'}`,
    );
  }
  console.log(`${kind}: ${STARTUP_ROUNDS - failed}/${STARTUP_ROUNDS} killed first starts came up again`);
  return failed === 0;
}

async function webhooks(kind: 'sqlite' | 'postgres', seed: number) {
  console.log(`\n== ${kind}: ${WEBHOOK_ROUNDS} kills during bursts of status changes, a webhook receiver listening (seed ${seed}) ==`);
  const s = await webhookFaultRun(kind, WEBHOOK_ROUNDS, seed, PG_URL);
  console.log(
    `${kind} webhooks: calls ${Object.entries(s.calls)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}; committed changes ${s.committedChanges}, delivery rows ${s.deliveries} (unmatched ${s.unmatched}), delivered ${s.delivered}, ` +
      `lost ${s.lost}, sent for a rolled-back change ${s.phantom}, received twice ${s.duplicates}, out of order ${s.outOfOrder}, 500s answered by the receiver (retried) ${s.refusedByReceiver}`,
  );
  for (const p of s.problems.slice(0, 20)) console.log(`  PROBLEM: ${p}`);
  return s.problems.length === 0;
}

async function main() {
  console.log(
    `Fault benchmark — seed ${SEED}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  let ok = true;
  for (const [i, kind] of dbs.entries()) {
    if (ROUNDS > 0) ok = (await kills(kind, SEED + i)) && ok;
    if (kind === 'postgres' && CUT_ROUNDS > 0) ok = (await cuts(SEED + 7)) && ok;
    if (STARTUP_ROUNDS > 0) ok = (await startups(kind, SEED + 13 + i)) && ok;
    if (WEBHOOK_ROUNDS > 0) ok = (await webhooks(kind, SEED + 29 + i)) && ok;
  }
  console.log(
    `\nload average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(ok ? 'Every check held after every fault.' : 'Some checks FAILED (see PROBLEMS above).');
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
