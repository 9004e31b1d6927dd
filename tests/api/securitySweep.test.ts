import { beforeAll, expect, it } from 'vitest';
import type { Policy } from '../../server/fastify.js';
import { API_PASSWORD, describeEachDb } from './helpers.js';
import { multipart } from './requestsFixtures.js';
import { sweepMatrix, type Call, type SweepContext } from './security/sweepMatrix.js';
import { FREE_TABLES, GLOBAL_TABLES, TENANT_TABLES, snapshotA, tableNames } from './security/tenantSnapshot.js';
import { A_MARKERS, KIND, ROLES, createSweepWorld, type Role, type SweepWorld } from './security/tenantWorld.js';
import { API_KEY_SCOPES, scopesOfRoute } from '../../model/apiKeys.js';

/**
 * The whole-API tenant sweep: every route (tests/api/security/sweepMatrix.ts) called as every role of
 * tenant B — its carrier's owner, staff and support, its end user, a signed-out visitor — with tenant A's
 * ids in the path, the query and the body. Each answer is one of the statuses the matrix allows (outside
 * a route's policy: 403, signed out 401), no answer contains a string of A's rows, and after each role
 * A's rows, the global tables and A's stored files are as they were. The admin is global by design: it
 * is only checked to be refused by the routes outside its policy. SWEEP_VERBOSE=1 prints every call's status.
 */
/**
 * Random credentials answered to the caller itself (a new API key and its prefix, a webhook secret, a token
 * or ticket) can spell "axq" by chance: 48 random base64url characters do about once in 700 keys (a CI run
 * failed so). They carry nothing of tenant A, so their values are left out of the marker scan; every other
 * field, names, notes and file names included, is still scanned.
 */
const RANDOM_VALUES = /"(key|prefix|secret|token|ticket)":"[^"]*"/g;
const scanned = (text: string) => text.replace(RANDOM_VALUES, '"$1":""');
/**
 * A 2xx that wrote nothing, so owes no audit entry: a refused booking (the price changed, no price:
 * `{outcome: 'not_booked', status: false, message}`), or a bulk action that changed no row (issue 34:
 * every id another tenant's or absent, `{data: {deleted: 0, results}}`).
 */
function refusedBooking(payload: Buffer): boolean {
  try {
    const body = JSON.parse(payload.toString()) as { status?: unknown; data?: { deleted?: unknown; results?: unknown } };
    return body.status === false || (Array.isArray(body.data?.results) && body.data.deleted === 0);
  } catch {
    return false;
  }
}

const inPolicy = (policy: Policy, role: Role) =>
  policy === 'public' || (policy === 'signedIn' ? role !== 'visitor' : KIND[role] !== null && policy.includes(KIND[role]!));

describeEachDb(
  'tenant sweep of the whole API',
  (p) => {
    let w: SweepWorld;
    let ctx: SweepContext;
    let aSession: string;
    const matrix = sweepMatrix();
    let address = 0;

    beforeAll(async () => {
      w = await createSweepWorld(p());
      const db = p().db.db;
      const id = async (q: Promise<{ id: number } | undefined>) => Number((await q)!.id);
      ctx = {
        bCarrier: w.b.carrier,
        bCustomer: w.b.customer,
        bStaff: w.b.staff,
        bRequest: await id(db.selectFrom('transport_requests').select('id').where('notes', '=', 'Bxq request notes').executeTakeFirst()),
        country: await id(db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirst()),
        language: await id(db.selectFrom('languages').select('id').where('code', '=', 'it').executeTakeFirst()),
        ticketCategory: await id(db.selectFrom('ticket_categories').select('id').orderBy('id').executeTakeFirst()),
        docType: await id(db.selectFrom('document_types').select('id').orderBy('id').executeTakeFirst()),
        priceCategory: await id(db.selectFrom('price_categories').select('id').orderBy('id').executeTakeFirst()),
      };
      aSession = await p().login(w.aOwner.email, w.aOwner.password);
    });

    const routes = () =>
      p()
        .app.routeTable.filter((r) => r.method !== 'HEAD')
        .map((r) => ({ ...r, key: `${r.method} ${r.url.replace(/^\/api\/v1/, '')}` }));

    it('classifies every route, and every table of the database', async () => {
      const registered = routes()
        .map((r) => r.key)
        .sort();
      expect(
        registered.filter((k) => !matrix[k]),
        'routes without a row in sweepMatrix.ts',
      ).toEqual([]);
      expect(
        Object.keys(matrix).filter((k) => !registered.includes(k)),
        'rows of sweepMatrix.ts without a route',
      ).toEqual([]);
      const classified = [...Object.keys(TENANT_TABLES), ...GLOBAL_TABLES, ...Object.keys(FREE_TABLES)];
      expect(
        (await tableNames(p())).filter((t) => !classified.includes(t)),
        'tables without a class in tenantSnapshot.ts',
      ).toEqual([]);
      // The world is complete: A has a row in every tenant table and its stored files are there.
      const before = await snapshotA(p(), w.a);
      for (const table of Object.keys(TENANT_TABLES)) expect((before[table] as unknown[]).length, `tenant A's ${table}`).toBeGreaterThan(0);
      const files = before.files as Array<[string, string]>;
      expect(files.length).toBeGreaterThan(1);
      expect(files.filter(([, hash]) => hash === 'missing')).toEqual([]);
    });

    async function send(call: Call, token: string | undefined) {
      address++;
      const headers: Record<string, string> = {
        'x-api-password': API_PASSWORD,
        'x-forwarded-for': `198.19.${address >> 8}.${address & 255}`,
        'accept-language': 'en',
      };
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: string | Buffer | undefined;
      if (call.form) {
        const mp = await multipart(call.form);
        payload = mp.payload;
        Object.assign(headers, mp.headers);
      } else if (call.body) {
        payload = JSON.stringify(call.body);
        headers['content-type'] = 'application/json';
      }
      const qs = call.query && Object.keys(call.query).length ? `?${new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)]))}` : '';
      return p().app.inject({ method: call.body || call.form ? 'POST' : 'GET', url: `/api/v1${call.path}${qs}`, headers, payload });
    }

    let size = 0;
    const statuses: Record<number, number> = {};
    // The audit log (docs/audit-log.md): every 2xx of a write route adds an entry; entries are only ever added.
    const auditCount = async () =>
      Number(
        (
          await (p().db.db as any)
            .selectFrom('audit_log')
            .select((eb: any) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        ).n,
      );
    const auditRows = () => (p().db.db as any).selectFrom('audit_log').selectAll().orderBy('id').execute() as Promise<Array<{ id: number }>>;
    const writesChecked = new Set<string>();
    it.each(ROLES)(
      'as tenant B’s %s: nothing of tenant A is seen or changed',
      async (role) => {
        const login = role === 'visitor' ? undefined : w.logins[role];
        let token = login ? await p().login(login.email, login.password) : undefined;
        const before = await snapshotA(p(), w.a);
        const auditBefore = await auditRows();
        const problems: string[] = [];
        let calls = 0;
        for (const route of routes()) {
          const entry = matrix[route.key];
          const allowed = inPolicy(route.policy, role);
          // The admin is global by design: only the routes outside its policy are swept for it.
          if (role === 'admin' && allowed) continue;
          const expected = allowed ? entry.expect : role === 'visitor' ? [401] : [403];
          const shown = entry.shows?.markers ?? [];
          const writes = p().app.writeRoutes.has(`${route.method} ${route.url}`);
          for (const call of entry.calls(w.a, ctx)) {
            const entriesBefore = writes ? await auditCount() : 0;
            const res = await send(call, token);
            // (a 200 `{outcome: 'not_booked', status: false}` is this API's refusal of a booking whose price changed: nothing written)
            if (writes && res.statusCode >= 200 && res.statusCode < 300 && !refusedBooking(res.rawPayload)) {
              writesChecked.add(route.key);
              if ((await auditCount()) <= entriesBefore)
                problems.push(`${role} ${route.key} ${call.path}: answered ${res.statusCode} and wrote no audit entry`);
            }
            calls++;
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            const text = res.rawPayload.toString('latin1').toLowerCase();
            if (process.env.SWEEP_VERBOSE) console.log(`${role}\t${res.statusCode}\t${route.key}\t${call.path}\t${text.slice(0, 300)}`);
            const where = `${role} ${route.key} ${call.path}${call.query ? ` ${JSON.stringify(call.query)}` : ''}`;
            if (!expected.includes(res.statusCode)) problems.push(`${where}: ${res.statusCode} (expected ${expected.join('/')}) ${text.slice(0, 200)}`);
            const leaked = A_MARKERS.filter((m) => !shown.includes(m) && scanned(text).includes(m.toLowerCase()));
            if (leaked.length) problems.push(`${where}: the answer shows A's ${leaked.join(', ')}`);
            if (allowed && call.sees && res.statusCode === 200 && !text.includes(call.sees))
              problems.push(`${where}: B's own "${call.sees}" missing from ${text.slice(0, 200)}`);
            if (entry.signsOut && login) token = await p().login(login.email, login.password);
          }
        }
        size += calls;
        expect(problems, problems.join('\n')).toEqual([]);
        expect(await snapshotA(p(), w.a)).toEqual(before);
        // Only ever added: every entry there before is there still, unchanged.
        const auditAfter = await auditRows();
        expect(auditAfter.slice(0, auditBefore.length)).toEqual(auditBefore);
        // A's own session outlived everything B did.
        expect((await p().api('GET', '/visitor/getProfile', { token: aSession })).status).toBe(200);
        if (role === ROLES[ROLES.length - 1]) {
          console.log(`[tenant sweep] ${routes().length} routes × ${ROLES.length} roles: ${size} calls; statuses ${JSON.stringify(statuses)}`);
          console.log(`[tenant sweep] audit log: ${writesChecked.size} of ${p().app.writeRoutes.size} write routes answered 2xx and each wrote its entry`);
        }
      },
      120_000,
    );

    // API keys (issue 23) are one more caller: a key of tenant B's carrier and of its end user, one per
    // scope. Every route is tried with it: outside the key's scopes (or its user's policy) 403, inside the
    // route's own outcomes; never a string of A's, and A's rows, the global tables and files unchanged.
    const KEY_CALLERS = (['owner', 'enduser'] as const).flatMap((role) => API_KEY_SCOPES.map((scope) => [role, scope] as const));
    it.each(KEY_CALLERS)(
      'as an API key of tenant B’s %s with scope %s: only its scopes, nothing of tenant A',
      async (role, scope) => {
        const login = w.logins[role];
        const session = await p().login(login.email, login.password);
        const ns = role === 'owner' ? 'company' : 'enduser';
        const made = await p().api('POST', `/${ns}/api_keys/store`, { token: session, body: { name: `Bxq sweep ${scope}`, scopes: [scope] } });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        const key: string = made.body.data.key;
        const before = await snapshotA(p(), w.a);
        const problems: string[] = [];
        let inScope = 0;
        for (const route of routes()) {
          const entry = matrix[route.key];
          const allowed = scopesOfRoute(route.key).includes(scope) && inPolicy(route.policy, role);
          if (allowed) inScope++;
          const expected = allowed ? entry.expect : [403];
          const shown = entry.shows?.markers ?? [];
          const writes = p().app.writeRoutes.has(`${route.method} ${route.url}`);
          for (const call of entry.calls(w.a, ctx)) {
            const entriesBefore = writes ? await auditCount() : 0;
            const res = await send(call, key);
            const text = res.rawPayload.toString('latin1').toLowerCase();
            const where = `key(${role}, ${scope}) ${route.key} ${call.path}${call.query ? ` ${JSON.stringify(call.query)}` : ''}`;
            if (process.env.SWEEP_VERBOSE) console.log(`${where}\t${res.statusCode}\t${text.slice(0, 200)}`);
            if (!expected.includes(res.statusCode)) problems.push(`${where}: ${res.statusCode} (expected ${expected.join('/')}) ${text.slice(0, 200)}`);
            const leaked = A_MARKERS.filter((m) => !shown.includes(m) && scanned(text).includes(m.toLowerCase()));
            if (leaked.length) problems.push(`${where}: the answer shows A's ${leaked.join(', ')}`);
            if (allowed && call.sees && res.statusCode === 200 && !text.includes(call.sees)) problems.push(`${where}: B's own "${call.sees}" missing`);
            if (writes && res.statusCode >= 200 && res.statusCode < 300 && !refusedBooking(res.rawPayload))
              if ((await auditCount()) <= entriesBefore) problems.push(`${where}: answered ${res.statusCode} and wrote no audit entry`);
          }
        }
        expect(problems, problems.join('\n')).toEqual([]);
        // every scope opens at least one route to each of the two kinds that hold keys
        expect(inScope, `routes open to key(${role}, ${scope})`).toBeGreaterThan(0);
        expect(await snapshotA(p(), w.a)).toEqual(before);
      },
      120_000,
    );

    // a key caller tries every route in a minute or so: its rate limit (tests/api/apiKeys.test.ts) is not what is swept here
  },
  { apiKeyRatePerMinute: 100_000 },
);
