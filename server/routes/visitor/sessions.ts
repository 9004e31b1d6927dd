import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { bool, int, list, obj, str, strN, writeAnswer } from '../../lib/answers.js';
import { MAX_PAGE } from '../../lib/paging.js';
import { notFound } from '../../lib/errors.js';
import { browserName } from '../../lib/userAgent.js';
import { tokensRepo, type SessionRow } from '../../repositories/tokens.js';
import { userManagementRepo } from '../../repositories/userManagement.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/** A session as the list shows it: `browser` is a short name read from the sign-in's User-Agent (null when unknown). */
export const sessionSchema = obj({ id: int, created_at: str, last_used_at: str, expires_at: str, browser: strN, ip: strN, current: bool });

/**
 * The list is paged (issue 35): a user signed in from many browsers (or a script that signed in often) gets
 * pages of SESSIONS_PER_PAGE, at most 50 a page; `page` is bounded as every list's (lib/paging.ts).
 */
const SESSIONS_PER_PAGE = 10;
const sessionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 50, default: SESSIONS_PER_PAGE },
  },
} as const;
const sessionsPage = {
  type: 'object',
  required: ['status', 'data', 'current_page', 'per_page', 'last_page', 'total'],
  additionalProperties: false,
  properties: { status: bool, data: list(sessionSchema), current_page: int, per_page: int, last_page: int, total: int },
} as const;

const present = (row: SessionRow, currentId: number) => ({
  id: row.id,
  created_at: row.created_at,
  // Sessions opened before migration 0013 have not been used since: their start.
  last_used_at: row.last_used_at ?? row.created_at,
  expires_at: row.expires_at,
  browser: browserName(row.user_agent),
  ip: row.ip,
  current: row.id === currentId,
});

/**
 * Active sessions (server.md §3 "Sessions"): the signed-in user lists theirs and ends any (ending the
 * current one signs out), or all the others; an admin ends every session of a user. A session is a
 * row of `auth_tokens` (repositories/tokens.ts). Ends are GET …/destroy/{id}, as the portal's other deletes.
 */
export default async function sessionRoutes(app: App) {
  const tokens = tokensRepo(app.db);
  const users = userManagementRepo(app.db);
  const tags = ['visitor'];

  app.get(
    '/visitor/sessions',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags,
        summary: "A page of the caller's active sessions: the current one, then the others, most recently used first.",
        querystring: sessionsQuery,
        response: { 200: sessionsPage },
      },
    },
    async (req) => {
      const me = req.user!;
      const { page = 1, per_page: perPage = SESSIONS_PER_PAGE } = req.query;
      const { rows, total } = await tokens.pageOf(me.id, me.token_id, page, perPage);
      return {
        status: true,
        data: rows.map((r) => present(r, me.token_id)),
        current_page: page,
        per_page: perPage,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        total,
      };
    },
  );

  app.get(
    '/visitor/sessions/destroy/:id',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags,
        summary: "Ends one of the caller's sessions (the current one signs out).",
        params: idParams,
        response: { 200: writeAnswer(obj({ id: int, current: bool })) },
      },
    },
    async (req) => {
      const me = req.user!;
      // Another user's session, an expired or unknown one: 404 alike.
      if (!(await tokens.revokeOwn(me.id, req.params.id))) throw notFound();
      const current = req.params.id === me.token_id;
      req.audit({ action: 'session_end', resource: 'auth_tokens', resource_id: req.params.id, company_id: me.company_id });
      return { status: true, message: req.t(current ? 'sessions.endedCurrent' : 'sessions.ended'), data: { id: req.params.id, current } };
    },
  );

  app.get(
    '/visitor/sessions/destroyOthers',
    {
      config: { policy: 'signedIn' },
      schema: { tags, summary: 'Ends every session of the caller but the current one.', response: { 200: writeAnswer(obj({ count: int })) } },
    },
    async (req) => {
      const me = req.user!;
      const count = await tokens.revokeAllOf(me.id, me.token_id);
      req.audit({
        action: 'session_end',
        resource: 'users',
        resource_id: me.id,
        company_id: me.company_id,
        changes: { other_sessions: { before: count, after: 0 } },
      });
      return { status: true, message: req.t('sessions.othersEnded', { count }), data: { count } };
    },
  );

  app.get(
    '/admin/users/destroySessions/:id',
    {
      config: { policy: kindsFor('user-management', 'edit').filter((k) => k === 'admin') },
      schema: {
        tags: ['admin'],
        summary: 'Ends every session of a user (signs them out everywhere).',
        params: idParams,
        response: { 200: writeAnswer(obj({ id: int, count: int })) },
      },
    },
    async (req) => {
      // Admins see every user (no carrier scope).
      const user = await users.find({ carrierId: null }, req.params.id);
      if (!user) throw notFound();
      const count = await tokens.revokeAllOf(user.id);
      req.audit({
        action: 'session_end',
        resource: 'users',
        resource_id: user.id,
        company_id: user.company_id,
        changes: { sessions: { before: count, after: 0 } },
      });
      return { status: true, message: req.t('sessions.userEnded', { count }), data: { id: user.id, count } };
    },
  );
}
