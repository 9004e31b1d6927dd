/**
 * `npm run bench:load` (issue 11): a fixed-rate mixed load on real server processes on loopback —
 * sign-in and sign-out, visitor and end-user quotes, request lists of the three kinds of user, request
 * creation, the support chat (scripts/load/mix.ts) — then every acknowledged write is looked up in the
 * database. Budgets: no server error, no connection error, no write missing, memory flat.
 *
 * SQLite: one server process on a temporary folder. PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test): a fresh schema shared by TWO server processes, called in
 * turn. Both run back to back unless LOAD_DB=sqlite|postgres.
 * LOAD_SECONDS (default 180 per database), LOAD_RATE (calls per second, open loop; default 20, what this 2-core machine sustained with p50 ≤ 40 ms while shared),
 * LOAD_SEED (the mix's random seed), LOAD_KEEP=1 keeps the data folder and the server logs.
 *
 * Throttles stay at their defaults: each simulated visitor and user calls from its own loopback
 * address (scripts/load/http.ts), as many visitor addresses as keep each below half the visitor quote
 * limit per minute, and no sign-in fails.
 */
import os from 'node:os';
import { startCluster } from './load/servers.js';
import { loadWorld, prepareWorld } from './load/world.js';
import { runLoad } from './load/run.js';
import { verify } from './load/ledger.js';
import { report } from './load/report.js';
import { QUOTES } from './load/bodies.js';
import { call, closeAgents } from './load/http.js';

const SECONDS = Number(process.env.LOAD_SECONDS || 180);
const RATE = Number(process.env.LOAD_RATE || 20);
const SEED = Number(process.env.LOAD_SEED || 11);
const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const which = process.env.LOAD_DB ? [process.env.LOAD_DB] : ['sqlite', 'postgres'];

/** Every quote of the mix must price, for a visitor and for an end user, before the load starts. */
async function checkQuotes(base: string, token: string) {
  for (const body of QUOTES) {
    for (const [who, t] of [
      ['visitor', undefined],
      ['end user', token],
    ] as const) {
      const res = await call({ base, from: '127.0.9.1', method: 'POST', path: '/visitor/costRequest', json: body, token: t });
      if (res.body?.status !== true) throw new Error(`quote for ${who} does not price: ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
    }
  }
  closeAgents();
}

async function runOn(dialect: string) {
  const cluster = await startCluster({
    postgresUrl: dialect === 'postgres' ? PG_URL : undefined,
    count: dialect === 'postgres' ? 2 : 1,
    prepare: prepareWorld,
  });
  try {
    const db = await cluster.open();
    try {
      const world = await loadWorld(db, cluster.servers[0].base);
      await checkQuotes(cluster.servers[cluster.servers.length - 1].base, world.endUsers[0].token);
      const name =
        `${dialect === 'postgres' ? 'PostgreSQL, 2 server processes' : 'SQLite, 1 server process'}: ${RATE} calls/s for ${SECONDS} s, ` +
        `${world.endUsers.length} end users in ${world.endUserCompanies.length} companies, ${world.carriers.length} carrier staff, ${world.admins.length} admins`;
      console.log(`\n${name}: running (load average before ${os.loadavg()[0].toFixed(2)})…`);
      const res = await runLoad({ cluster, world, rate: RATE, seconds: SECONDS, seed: SEED });
      const exited = cluster.servers.filter((s) => s.proc.exitCode !== null).length;
      const missing = await verify(db.db, res.ledger);
      const verdict = report(name, res, missing, cluster.errorLines(), exited);
      console.log(verdict.lines.join('\n'));
      return verdict.ok;
    } finally {
      await db.destroy();
    }
  } finally {
    await cluster.stop();
  }
}

async function main() {
  let ok = true;
  for (const d of which) {
    if (d !== 'sqlite' && d !== 'postgres') throw new Error(`LOAD_DB must be sqlite or postgres, not ${d}`);
    ok = (await runOn(d)) && ok;
  }
  console.log(ok ? '\nbench:load — all budgets met.' : '\nbench:load — budget MISSED.');
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
