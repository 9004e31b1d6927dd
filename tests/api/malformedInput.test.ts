import { beforeAll, expect, it } from 'vitest';
import type { Kind } from '../../model/roles.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { tokensRepo } from '../../server/repositories/tokens.js';
import { API_PASSWORD, DEMO, describeEachDb } from './helpers.js';
import { casesFor, preview, type FuzzCase } from './security/fuzz.js';

/**
 * Property: whatever arrives — wrong types, missing fields, nulls, 100k-character strings, deep nesting,
 * arrays for scalars, numbers past every edge, control characters, SQL and HTML, broken JSON, wrong
 * content types, malformed multipart, hostile query strings and path parameters — every route answers
 * below 500, and every refusal is `{message, errors}`. Each route is called as a role its policy lets
 * through, so the handler (not the guard) meets the input.
 *
 * The seed is fixed so CI is reproducible; FUZZ_SEED changes it, FUZZ_CASES the cases per route,
 * FUZZ_ROUTE ('POST /api/v1/…') narrows the run to one route when reproducing a failure.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20251102);
const CASES = Number(process.env.FUZZ_CASES ?? 24);
const ONLY = process.env.FUZZ_ROUTE;

const SUPPORT_EMAIL = 'support@fuzz.test';
const EMAILS: Record<Kind, string> = { admin: DEMO.admin, carrier: DEMO.carrier, enduser: DEMO.enduser, support: SUPPORT_EMAIL };

describeEachDb('malformed input on every route', (p) => {
  const tokens: Partial<Record<Kind, string>> = {};

  /** Signs in (again) whoever a previous case signed out or deactivated: every route starts from the same roles. */
  async function restoreRoles() {
    const db = p().db.db;
    await db.updateTable('users').set({ status_id: 1 }).where('email', 'in', Object.values(EMAILS)).execute();
    await db
      .updateTable('companies')
      .set({ status_id: 1 })
      .where('id', 'in', db.selectFrom('users').select('company_id').where('email', 'in', Object.values(EMAILS)))
      .execute();
    const repo = tokensRepo(db);
    for (const kind of Object.keys(EMAILS) as Kind[]) {
      if (!tokens[kind] || !(await repo.resolve(tokens[kind]!))) {
        tokens[kind] = await p().login(EMAILS[kind], kind === 'support' ? 'Support123' : DEMO.password);
      }
    }
  }

  beforeAll(async () => {
    const db = p().db.db;
    const acme = await db.selectFrom('users').select('company_id').where('email', '=', DEMO.carrier).executeTakeFirstOrThrow();
    await db
      .insertInto('users')
      .values({
        role_id: 7,
        support_role_id: 1,
        company_id: acme.company_id,
        first_name: 'Sam',
        last_name: 'Support',
        email: SUPPORT_EMAIL,
        password_hash: await hashPassword('Support123'),
        status_id: 1,
        created_at: nowIso(),
        updated_at: nowIso(),
      } as any)
      .execute();
    await restoreRoles();
  });

  /** Who calls a route: the kinds its policy allows, in turn; public routes also as a visitor. */
  const callers = (policy: unknown): Array<Kind | null> =>
    policy === 'public' ? [null, 'enduser', 'carrier'] : policy === 'signedIn' ? ['enduser', 'carrier', 'admin', 'support'] : (policy as Kind[]);

  let address = 0;
  async function send(method: string, url: string, c: FuzzCase, kind: Kind | null) {
    const path = url.replace(/:(\w+)/g, (_, name) => c.params[name].replace(/ /g, '%20'));
    const headers: Record<string, string> = { 'x-api-password': API_PASSWORD };
    if (kind) headers.authorization = `Bearer ${tokens[kind]}`;
    let payload: string | Buffer | undefined;
    if (c.body && 'json' in c.body) {
      payload = JSON.stringify(c.body.json);
      headers['content-type'] = 'application/json';
    } else if (c.body) {
      payload = c.body.raw;
      if (c.body.contentType) headers['content-type'] = c.body.contentType;
    }
    Object.assign(headers, c.headers);
    // A fresh address per call: the per-address throttles would otherwise answer 429 before the handler.
    address++;
    const remoteAddress = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    return p().app.inject({ method: method as 'GET', url: `${path}${c.query ? `?${c.query}` : ''}`, headers, payload, remoteAddress });
  }

  it('answers every generated case below 500, refusals as {message, errors}', async () => {
    const routes = p().app.routeTable.filter((r) => r.method !== 'HEAD' && (!ONLY || `${r.method} ${r.url}` === ONLY));
    expect(routes.length).toBeGreaterThan(ONLY ? 0 : 100);
    const failures: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const who = callers(route.policy);
      for (const [i, c] of casesFor(route, SEED, CASES).entries()) {
        const kind = who[i % who.length];
        const res = await send(route.method, route.url, c, kind);
        calls++;
        let problem = '';
        if (res.statusCode >= 500) problem = `status ${res.statusCode}`;
        else if (res.statusCode >= 400) {
          let body: any;
          try {
            body = res.json();
          } catch {
            body = undefined;
          }
          const shaped =
            body &&
            typeof body.message === 'string' &&
            body.message.length > 0 &&
            body.errors &&
            typeof body.errors === 'object' &&
            !Array.isArray(body.errors);
          if (!shaped) problem = `status ${res.statusCode} but the body is not {message, errors}`;
        }
        if (problem)
          failures.push(`FUZZ_SEED=${SEED} FUZZ_ROUTE='${route.method} ${route.url}' as ${kind ?? 'visitor'}: ${c.label} → ${problem}: ${preview(res.body)}`);
      }
      await restoreRoles();
    }
    console.log(`[malformed input] ${routes.length} routes × ${CASES} cases = ${calls} calls, seed ${SEED}`);
    expect(failures, failures.join('\n')).toEqual([]);
  }, 300_000);
});
