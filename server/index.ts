import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDb } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { seed } from './seed/index.js';
import { DEMO_LOGINS, DEMO_PASSWORD } from './seed/demo.js';
import { sweepFiles } from './lib/fileSweep.js';
import { moveFilesIntoStore } from './lib/fileMove.js';
import { keepAuditDays } from './plugins/audit.js';

/** The server process: configure, migrate, seed, serve. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
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
  const close = async () => {
    clearInterval(sweeper);
    clearInterval(auditRetention);
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}/`;
  const lines = [``, `  Freight portal is running at ${url}`, `  Database: ${db.dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`];
  if (config.demoData) {
    lines.push(`  Demo logins (password ${DEMO_PASSWORD}):`);
    for (const l of DEMO_LOGINS) lines.push(`    ${l.role.padEnd(8)} ${l.email}`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
