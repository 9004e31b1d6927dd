import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { auditLogRepo, type AuditActor, type AuditEntry } from '../repositories/auditLog.js';
import { carrierScope } from '../lib/scope.js';
import { API_PREFIX } from './session.js';

/**
 * The audit log's recording (server.md §3, docs/audit-log.md). A route describes what it wrote with
 * `req.audit(entry)`; the entries are inserted in one statement when the route answers 2xx (nothing for a
 * refused write), before the answer leaves. Security events without a signed-in user (a failed sign-in
 * for an e-mail) are written at once with `auditEvent`.
 *
 * Nothing is forgotten: every write route (every POST, and the GET routes of the write verbs: destroy,
 * changeStatus, logout) that answers 2xx without an entry is an error — with `config.validateResponses`
 * (the tests) the answer becomes a 500, elsewhere it is logged. A POST that writes nothing declares why:
 * `config: { notAudited: 'reason' }` (the quote, lookups).
 */
const WRITE_VERBS = /\/(destroy\w*|changeStatus|logout)(\/|$)/;

export function isWriteRoute(method: string, url: string, config?: Pick<FastifyContextConfig, 'notAudited'>): boolean {
  if (config?.notAudited) return false;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') return true;
  return method === 'GET' && WRITE_VERBS.test(url);
}

/** Failed secret checks: anyone may cause them for any e-mail, so they go to the admins' log only (no tenant). */
const NO_TENANT = new Set(['login_failed', 'mfa_failed']);

/** The tenant of a user's company (see repositories/auditLog.ts tenantOf), for events naming an account. */
const tenantOfUser = (userId: number) =>
  sql<
    number | null
  >`(select case when c.company_role_id in (2, 4) then c.id when c.company_role_id = 3 then c.carrier_id else null end from users u join companies c on c.id = u.company_id where u.id = ${userId})`;

function actorOf(req: FastifyRequest): AuditActor {
  const u = req.user;
  if (!u) return { user_id: null, ip: req.ip ?? null };
  const actor: AuditActor = { user_id: u.id, tenant: u.kind === 'admin' ? undefined : carrierScope(req), ip: req.ip ?? null };
  // A write made with an API key: who is the key (its name; the company is its user's, which is the key's).
  if (u.apiKey) actor.name = `API key "${u.apiKey.name}"`;
  return actor;
}

/**
 * A security event written at once, whatever the answer (a failed sign-in answers 401): `user_id` names the
 * account (the actor), or none for an unknown e-mail. Failed sign-ins and password-reset requests carry no
 * tenant (anyone may cause them); other events the account's.
 */
export async function auditEvent(app: FastifyInstance, req: FastifyRequest, entry: AuditEntry & { user_id?: number | null }): Promise<void> {
  const { user_id = null, ...rest } = entry;
  const anyone = NO_TENANT.has(rest.action) || rest.resource === 'password_resets';
  const tenant = anyone || user_id == null ? null : tenantOfUser(user_id);
  await auditLogRepo(app.db).insert({ user_id, tenant, ip: req.ip ?? null }, [rest]);
  req.auditRecorded = true;
}

const DAY = 86_400_000;

/**
 * The retention (AUDIT_DAYS): removes the entries older than `days` now, then once a day; answers the timer.
 * The only code that deletes entries.
 */
export async function keepAuditDays(db: Db, days: number, log: Pick<FastifyBaseLogger, 'info' | 'error'>): Promise<NodeJS.Timeout> {
  const purge = () =>
    auditLogRepo(db)
      .purge(days)
      .then((n) => {
        if (n) log.info(`audit log: removed ${n} entries older than ${days} days`);
      })
      .catch((err) => log.error({ err }, 'audit log retention failed'));
  await purge();
  const timer = setInterval(() => void purge(), DAY);
  timer.unref();
  return timer;
}

/** A failed sign-in for an e-mail (the account's id when it exists): one line in the sign-in routes. */
export const signInFailed = (app: FastifyInstance, req: FastifyRequest, email: string, userId: number | null | undefined, action = 'login_failed') =>
  auditEvent(app, req, { action, resource: 'auth', user_id: userId ?? null, changes: { email: { before: null, after: email } } });

async function audit(app: FastifyInstance) {
  const repo = auditLogRepo(app.db);
  const strict = app.config.validateResponses;
  const writes = new Set<string>();
  app.decorate('writeRoutes', writes);
  /**
   * A write route's answer without an audit entry: an error (and, in the tests, a failure). Hooked on the
   * write routes only (issue 37: as one hook of every route it built `req.routeOptions`, a new frozen object
   * per access, for every successful answer, the quotes' included).
   */
  const unaudited = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const status = reply.statusCode;
    if (status < 200 || status >= 300 || req.auditRecorded) return payload;
    const key = `${req.method} ${req.routeOptions.url}`;
    req.log.error({ route: key, status }, 'a write route answered without an audit entry');
    if (strict) throw new Error(`[audit] ${key} answered ${status} without an audit entry (req.audit, or config.notAudited with a reason)`);
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    let write = false;
    for (const method of [route.method].flat()) {
      if (!isWriteRoute(method, route.url, route.config)) continue;
      writes.add(`${method} ${route.url}`);
      write = true;
    }
    // the route's own onSend hooks run after the app's: the entries are written by then (auditRecorded)
    if (write) route.onSend = [...[route.onSend ?? []].flat(), unaudited];
  });

  app.decorateRequest('auditEntries', null);
  app.decorateRequest('auditRecorded', false);
  app.decorateRequest('audit', function (this: FastifyRequest, entry: AuditEntry) {
    (this.auditEntries ??= []).push(entry);
  });

  app.decorateRequest('auditNothing', function (this: FastifyRequest) {
    this.auditRecorded = true;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const status = reply.statusCode;
    if (status < 200 || status >= 300) return payload;
    const entries = req.auditEntries;
    if (entries?.length) {
      req.auditEntries = null;
      req.auditRecorded = true;
      try {
        await repo.insert(actorOf(req), entries);
      } catch (err) {
        req.log.error({ err }, 'audit entry not written');
        if (strict) throw err;
      }
    }
    return payload;
  });
}

export default fp(audit, { name: 'audit', dependencies: ['session'] });
