/**
 * `npm run bench:quote-ab`: is a change to the quote's path faster? (issue 37). bench:quote's ratios move by
 * ±0.05 between runs on a shared 2-core machine, more than most single changes; this compares two builds of
 * the server in one run, alternated slice by slice so that both see the same machine.
 *
 * A: the server of the git revision BENCH_AB_BASE (default HEAD), built in a temporary worktree (its
 * node_modules linked to this one's); B: the working tree's server (dist-server/, built when stale). Both serve
 * one seeded database (the demo tariffs, SQLite in a temporary folder), each on its own port, one at a time.
 * Per round, in an order that alternates between rounds: A's floor, A's quote, B's floor, B's quote, each for
 * BENCH_SLICE seconds (default 2) at 50 connections (autocannon in this process); the CPU time of the server
 * process being loaded (utime + stime of /proc/<pid>/stat) is divided by its answers. BENCH_ROUNDS rounds
 * (default 8). WHO=visitor (default) or enduser; BENCH_BODY=standard for the standard quote.
 *
 * Printed: for each server its CPU µs per request on the floor and on the quote, floor / quote (the server's
 * side of bench:quote's ratio, without the client's share of the two cores), and the quote's throughput over
 * the floor's; then B − A per round: the median and the range of the difference in the quote's µs above the
 * floor. Linux only (/proc).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_EXPRESS, BENCH_ROUTE, benchPortal, freePort, seededBenchDb, untilServing } from './benchKit.js';
import { generateTariffs, hasExpressTariffs } from './bench-quote-data.js';
import { SERVER_NODE_ARGS, serverArgs } from './serverCommand.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SLICE = Number(process.env.BENCH_SLICE || 2);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 8));
const BASE = process.env.BENCH_AB_BASE || 'HEAD';
const API_PASSWORD = 'bench-password';
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** The CPU time (µs) a process has used so far. */
function cpuOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime (fields 14 and 15)
}

/** The base revision's server bundle, built in a temporary worktree. */
function buildBase(): { bundle: string; remove: () => void } {
  const rev = execFileSync('git', ['rev-parse', '--short', BASE], { cwd: root }).toString().trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quote-ab-${rev}-`));
  execFileSync('git', ['worktree', 'add', '--detach', dir, rev], { cwd: root, stdio: 'ignore' });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [path.join(dir, 'scripts', 'buildServer.mjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    bundle: path.join(dir, 'dist-server', 'index.mjs'),
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' }),
  };
}

function answers(opts: autocannon.Options): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    autocannon({ connections: 50, duration: SLICE, ...opts }, (err) => (err ? reject(err) : resolve(n))).on('response', () => n++);
  });
}

async function main() {
  const portal = await benchPortal('bench-ab', undefined, API_PASSWORD, { QUOTE_RATE_LIMIT: '1000000000', LOG_LEVEL: 'warn' });
  const base = buildBase();
  const servers: Array<{ name: string; proc: ChildProcess; url: string }> = [];
  try {
    const { db, carrierId } = await seededBenchDb(portal.env);
    if (!(await hasExpressTariffs(db.db, carrierId))) await generateTariffs(db.db, carrierId);
    await db.destroy();
    const entryB = serverArgs();
    for (const [name, args] of [
      [`A (${BASE})`, [...SERVER_NODE_ARGS, base.bundle]],
      ['B (working tree)', entryB],
    ] as const) {
      const port = await freePort();
      const proc = spawn(process.execPath, args, {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'development', ...portal.env, PORT: String(port) } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      servers.push({ name, proc, url: `http://127.0.0.1:${port}/api/v1` });
    }
    const headers: Record<string, string> = { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'accept-language': 'it' };
    for (const s of servers) await untilServing(s.url, headers);
    if (process.env.WHO === 'enduser') {
      const login = await (
        await fetch(`${servers[0]!.url}/visitor/login`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email: 'enduser@portal.demo', password: 'demo1234' }),
        })
      ).json();
      headers.authorization = `Bearer ${login.token}`;
    }
    const quote = JSON.stringify(
      process.env.BENCH_BODY === 'standard'
        ? { zone: 'national', service: 'standard', ...BENCH_ROUTE, standardunits: 4, standardweight: 480, standardvolume: 2.1, standardvolumeType: 'CBM' }
        : BENCH_EXPRESS,
    );
    const floor = quote.replace('"palletWeight":[250,', '"palletWeight":[-250').replace('"standardweight":480', '"standardweight":-480');
    for (const s of servers) {
      const check = await (await fetch(`${s.url}/visitor/costRequest`, { method: 'POST', headers, body: quote })).json();
      if (check.status !== true) throw new Error(`${s.name} does not price: ${JSON.stringify(check).slice(0, 300)}`);
      if ((await fetch(`${s.url}/visitor/costRequest`, { method: 'POST', headers, body: floor })).status !== 422)
        throw new Error(`${s.name}: the floor is not a 422`);
      // warm-up: compiled code, caches
      await answers({ url: `${s.url}/visitor/costRequest`, method: 'POST', headers, body: quote, duration: 2 });
      await answers({ url: `${s.url}/visitor/costRequest`, method: 'POST', headers, body: floor, duration: 1 });
    }
    type Slice = { cpu: number; n: number };
    const runs = servers.map(() => ({ floor: [] as Slice[], quote: [] as Slice[] }));
    const slice = async (i: number, body: string): Promise<Slice> => {
      const pid = servers[i]!.proc.pid!;
      const c0 = cpuOf(pid);
      const n = await answers({ url: `${servers[i]!.url}/visitor/costRequest`, method: 'POST', headers, body });
      return { cpu: cpuOf(pid) - c0, n };
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) {
        runs[i]!.floor.push(await slice(i, floor));
        runs[i]!.quote.push(await slice(i, quote));
      }
    }
    const per = (xs: Slice[]) => xs.reduce((s, x) => s + x.cpu, 0) / xs.reduce((s, x) => s + x.n, 0);
    const rate = (xs: Slice[]) => xs.reduce((s, x) => s + x.n, 0) / (xs.length * SLICE);
    console.log(
      `\nQuote A/B — SQLite, ${process.env.WHO === 'enduser' ? 'end user' : 'visitor'}, ${process.env.BENCH_BODY === 'standard' ? 'standard' : '3-pallet express'}, 50 connections, ${ROUNDS} rounds × ${SLICE} s slices, ${os.cpus().length} CPUs`,
    );
    console.log(
      `${'server'.padEnd(28)} ${'floor µs'.padStart(9)} ${'quote µs'.padStart(9)} ${'floor/quote CPU'.padStart(16)} ${'quote/s ÷ floor/s'.padStart(18)}`,
    );
    servers.forEach((s, i) => {
      const f = per(runs[i]!.floor);
      const q = per(runs[i]!.quote);
      console.log(
        `${s.name.padEnd(28)} ${f.toFixed(1).padStart(9)} ${q.toFixed(1).padStart(9)} ${(f / q).toFixed(3).padStart(16)} ${(rate(runs[i]!.quote) / rate(runs[i]!.floor)).toFixed(3).padStart(18)}`,
      );
    });
    // per round: the quote's µs above its floor, B − A
    const above = (i: number, r: number) => runs[i]!.quote[r]!.cpu / runs[i]!.quote[r]!.n - runs[i]!.floor[r]!.cpu / runs[i]!.floor[r]!.n;
    const diffs = Array.from({ length: ROUNDS }, (_, r) => above(1, r) - above(0, r)).sort((a, b) => a - b);
    console.log(
      `B − A, the quote's CPU above its floor per request: median ${diffs[Math.floor(ROUNDS / 2)]!.toFixed(1)} µs (rounds: ${diffs[0]!.toFixed(1)} to ${diffs[ROUNDS - 1]!.toFixed(1)})`,
    );
    console.log(
      `Load average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}.`,
    );
  } finally {
    for (const s of servers) s.proc.kill('SIGTERM');
    await Promise.all(servers.map((s) => new Promise((r) => (s.proc.exitCode === null ? s.proc.once('exit', r) : r(null)))));
    base.remove();
    await portal.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
