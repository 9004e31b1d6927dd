import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDb } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { seed } from './seed/index.js';
import { DEMO_LOGINS, DEMO_PASSWORD } from './seed/demo.js';
import { sweepFiles } from './lib/fileSweep.js';
import { moveFilesIntoStore } from './lib/fileMove.js';
import { keepAuditDays } from './plugins/audit.js';
import { sharedReadPool } from './imports/read/pool.js';
import { mailStatsOf, mailsSettled } from './lib/mail.js';
import { gracefulStop } from './lib/shutdown.js';

/**
 * The exit code of a start refused by its configuration (sysexits' EX_CONFIG): the supervisor
 * (scripts/start.mjs, which has the same number) does not restart a process that would only be refused again.
 */
const EXIT_CONFIG = 78;

/**
 * What a supervised server (scripts/start.mjs sets PORTAL_SUPERVISOR=1 and gives it an IPC channel, as
 * node:cluster does) tells its supervisor once it listens: the supervisor prints the banner once for all its
 * processes and counts the process's time up from here. Unsupervised, the server prints the banner itself.
 */
export interface ReadyMessage {
  type: 'portal:ready';
  pid: number;
  banner: string;
}

/** The server process: configure, migrate, seed, serve; stop gracefully on SIGTERM / SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db.db);
  await seed(db.db, config);
  const app = await buildApp({ config, db, logger: { level: config.logLevel } });
  // Files an earlier configuration kept elsewhere (DATA_DIR/files before the database store, issue 32)
  // are moved into the configured store before serving (lib/fileMove.ts: idempotent, resumable).
  await moveFilesIntoStore(db.db, config.dataDir, app.files, app.log, config.orphanFileMinutes * 60_000);
  // Files a process that died left behind (issue 11), before serving; then hourly, never younger than 15
  // minutes then, so an upload under way in this very process is never touched.
  const sweep = (minutes: number) =>
    sweepFiles(db.db, app.files, minutes * 60_000)
      .then((removed) => {
        if (removed.length) app.log.warn({ removed }, `removed ${removed.length} files no row refers to`);
      })
      .catch((err) => app.log.error({ err }, 'file sweep failed'));
  await sweep(config.orphanFileMinutes);
  const sweeper = setInterval(() => void sweep(Math.max(15, config.orphanFileMinutes)), 3_600_000);
  sweeper.unref();
  // The audit log keeps AUDIT_DAYS days (server.md §3): the server removes older entries at start, then daily.
  const auditRetention = await keepAuditDays(db.db, config.auditDays, app.log);
  // The graceful stop (lib/shutdown.ts): the app closes, then what the process holds beside it.
  const stop = gracefulStop({
    app,
    timeoutMs: config.shutdownTimeoutMs,
    async release() {
      clearInterval(sweeper);
      clearInterval(auditRetention);
      // every request has been answered: no read is waiting for a thread
      await sharedReadPool().close();
      // status mails of the last requests, the webhook worker's failure notices
      await mailsSettled(config);
      await db.destroy();
    },
    pending: () => ({
      streams: app.live.listeners.size,
      readsRunning: sharedReadPool().stats.running,
      mailsSending: mailStatsOf(config).sending,
    }),
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Supervised as a plain child (scripts/start.mjs, WORKERS=1): the supervisor gone (killed), stop too rather
  // than hold the port with nobody to restart or stop this process. (A cluster worker exits at once then.)
  const supervised = !!process.send && process.env.PORTAL_SUPERVISOR === '1';
  if (supervised) process.on('disconnect', () => stop('disconnect'));
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}/`;
  const lines = [``, `  Freight portal is running at ${url}`, `  Database: ${db.dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`];
  if (config.demoData) {
    lines.push(`  Demo logins (password ${DEMO_PASSWORD}):`);
    for (const l of DEMO_LOGINS) lines.push(`    ${l.role.padEnd(8)} ${l.email}`);
  }
  const banner = lines.join('\n') + '\n';
  if (supervised) process.send!({ type: 'portal:ready', pid: process.pid, banner } satisfies ReadyMessage);
  else console.log(banner);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
