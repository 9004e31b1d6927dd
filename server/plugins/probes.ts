import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { loadMigrations } from '../migrations/index.js';

/**
 * The probes (issue 32), outside /api/v1, without the API password, JSON, never cached, not logged per call
 * (a load balancer asks every few seconds):
 * - `GET /healthz`: the process answers — `{status: "ok", pid}`, no database call. For a liveness check
 *   (restart the process when it stops answering). `pid` tells the processes of one port apart (WORKERS).
 * - `GET /readyz`: the process can serve — every migration this code knows is applied and the database
 *   answers within READY_TIMEOUT_MS: 200 `{status: "ok"}`; else 503 `{status: "unavailable", reason}`. For
 *   a readiness check (send traffic only to ready processes). One query (`kysely_migration` by its key);
 *   callers arriving while one is under way share it.
 * While the server stops, Fastify answers every request 503 (return503OnClosing) and accepts no connection.
 *
 * The reason is a short category ("database did not answer within 1000 ms", "database unavailable",
 * "migrations pending"), not the database's own error: the probes are public, and a driver's message may
 * carry an internal address. The error is logged once when readiness is lost, and its return logged too.
 */
export const READY_TIMEOUT_MS = 1000;

type Readiness = { ok: true } | { ok: false; reason: string; err?: unknown };

async function probes(app: FastifyInstance) {
  const names = Object.keys(await loadMigrations());
  const newest = names[names.length - 1];
  let checking: Promise<Readiness> | null = null;
  let wasReady = true;

  async function check(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, reason: `database did not answer within ${READY_TIMEOUT_MS} ms` }), READY_TIMEOUT_MS);
    });
    // Kysely records each applied migration by name; the newest one of this code being there means all are
    // (they run in order, in one transaction on both databases).
    const query = sql<{ ok: number }>`select 1 as ok from kysely_migration where name = ${newest}`
      .execute(app.db)
      .then((r): Readiness => (r.rows.length ? { ok: true } : { ok: false, reason: 'migrations pending' }))
      .catch((err: unknown): Readiness => ({ ok: false, reason: 'database unavailable', err }));
    try {
      return await Promise.race([query, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', pid: process.pid };
  });

  app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (_req, reply) => {
    checking ??= check().finally(() => (checking = null));
    const r = await checking;
    reply.header('cache-control', 'no-store');
    if (r.ok !== wasReady) {
      wasReady = r.ok;
      if (r.ok) app.log.info('ready again: the database answers');
      else app.log.warn({ err: r.err, reason: r.reason }, 'not ready');
    }
    if (r.ok) return { status: 'ok' };
    return reply.status(503).send({ status: 'unavailable', reason: r.reason });
  });
}

export default fp(probes, { name: 'probes' });
