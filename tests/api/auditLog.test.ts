import { beforeAll, expect, it } from 'vitest';
import Fastify from 'fastify';
import sessionPlugin from '../../server/plugins/session.js';
import auditPlugin from '../../server/plugins/audit.js';
import { TARIFF_TABLES } from '../../model/tariffs.js';
import { loadConfig } from '../../server/config.js';
import { keepAuditDays } from '../../server/plugins/audit.js';
import { REDACTED, redact } from '../../server/repositories/auditLog.js';
import { DEMO, describeEachDb } from './helpers.js';
import { PASSWORD, createTenants, userBody, type Tenants } from './accountsFixtures.js';
import { download, form } from './tariffs.helpers.js';

/**
 * The audit log (server.md §3, docs/audit-log.md) on both databases: what a write records (before and
 * after of the changed fields; an upload's file name and count, not its rows; a failed sign-in for an
 * e-mail; no secrets), the filters and pages of GET /admin/audit_log, the carrier's own tenant on
 * GET /company/audit_log, the retention (AUDIT_DAYS), and that reads and refused writes record nothing.
 */
describeEachDb('audit log', (p) => {
  let t: Tenants;
  let admin: string;
  let acme: string;
  let beta: string;
  const db = () => p().db.db as any;
  const count = async () =>
    Number(
      (
        await db()
          .selectFrom('audit_log')
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      ).n,
    );
  const log = async (query: Record<string, string | number> = {}, token = admin, ns = 'admin') => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const r = await p().api('GET', `/${ns}/audit_log?${qs}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { data: any[]; current_page: number; per_page: number; last_page: number; total: number };
  };
  const latest = async (query: Record<string, string | number>) => (await log({ ...query, per_page: 1 })).data[0];

  beforeAll(async () => {
    t = await createTenants(p());
    admin = await p().login(DEMO.admin);
    acme = await p().login(t.acmeOwner.email);
    beta = await p().login(t.betaOwner.email, PASSWORD);
  });

  it('records an update with the before and after of the changed fields only, and its author', async () => {
    const made = await p().api('POST', '/admin/currencies/store', { token: admin, body: { name: 'Audit dollar', code_alpha: 'ADX', symbol: 'A$' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id;
    const created = await latest({ resource: 'currencies', resource_id: id });
    expect(created).toMatchObject({ action: 'create', resource: 'currencies', resource_id: id, user_role_id: 1, company_id: t.adminCompany });
    expect(created.changes).toContainEqual({ field: 'name', before: null, after: 'Audit dollar' });

    const upd = await p().api('POST', `/admin/currencies/update/${id}`, { token: admin, body: { name: 'Audit dollar 2', code_alpha: 'ADX', symbol: 'A$' } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const e = await latest({ resource: 'currencies', resource_id: id });
    expect(e).toMatchObject({ action: 'update', user_id: expect.any(Number), user_name: expect.any(String) });
    expect(e.changes).toEqual([{ field: 'name', before: 'Audit dollar', after: 'Audit dollar 2' }]);
    expect(new Date(e.at).toISOString()).toBe(e.at);
  });

  it('records nothing for a refused write, a read or a quote', async () => {
    const before = await count();
    const refused = await p().api('POST', '/admin/currencies/store', { token: admin, body: { name: '' } });
    expect(refused.status).toBe(422);
    expect((await p().api('GET', '/admin/currencies', { token: admin })).status).toBe(200);
    expect((await p().api('GET', '/company/users', { token: acme })).status).toBe(200);
    const quote = await p().api('POST', '/visitor/costRequest', { body: {} });
    expect(quote.status).toBe(422);
    expect(await count()).toBe(before);
  });

  it('records a tariff upload with the file name and the row count, not the rows', async () => {
    const spec = TARIFF_TABLES[0];
    const tpl = await download(p(), `/admin/tariff_templates/${spec.templateKey}`, admin);
    const up = await p().api('POST', `/admin/${spec.key}/store`, {
      token: admin,
      payload: form({ company_id: t.beta }, { field: spec.fileField, name: 'tariffe-beta.xlsx', data: tpl.data }),
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const e = await latest({ resource: spec.table, action: 'upload' });
    expect(e.changes).toEqual([
      { field: 'file', before: null, after: 'tariffe-beta.xlsx' },
      // before: the rows the upload replaced (an empty set here).
      { field: 'rows', before: 0, after: spec.examples.length },
    ]);
    // The entry falls in Beta's tenant (an admin's write about Beta's rows): Beta reads it, Acme does not.
    const mine = await log({ resource: spec.table }, beta, 'company');
    expect(mine.data.map((x) => x.id)).toContain(e.id);
    expect((await log({ resource: spec.table }, acme, 'company')).total).toBe(0);
  });

  it('records a failed sign-in for an e-mail (known or not) for the admins only, and a successful one', async () => {
    const bad = await p().api('POST', '/visitor/login', { body: { email: t.acmeStaff.email, password: 'Wrong-passw0rd' } });
    expect(bad.status).toBe(401);
    const e = await latest({ action: 'login_failed' });
    expect(e).toMatchObject({ resource: 'auth', user_id: t.acmeStaff.id });
    expect(e.changes).toEqual([{ field: 'email', before: null, after: t.acmeStaff.email }]);
    expect(JSON.stringify(e)).not.toContain('Wrong-passw0rd');
    const unknown = await p().api('POST', '/visitor/login', { body: { email: 'nobody@nowhere.test', password: 'Wrong-passw0rd' } });
    expect(unknown.status).toBe(401);
    expect(await latest({ action: 'login_failed' })).toMatchObject({
      user_id: null,
      changes: [{ field: 'email', before: null, after: 'nobody@nowhere.test' }],
    });
    // Anyone may cause a failed sign-in for any e-mail: no tenant's log shows them.
    expect((await log({ action: 'login_failed' }, acme, 'company')).total).toBe(0);

    await p().login(t.acmeStaff.email, PASSWORD);
    const ok = await latest({ action: 'login', user_id: t.acmeStaff.id });
    expect(ok).toMatchObject({ resource: 'auth', resource_id: t.acmeStaff.id, company_id: t.acme, user_role_id: 5 });
    expect((await log({ action: 'login', user_id: t.acmeStaff.id }, acme, 'company')).total).toBeGreaterThan(0);
  });

  it('never writes passwords, hashes or tokens', async () => {
    const made = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'audit.pw@test.test' }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id;
    const upd = await p().api('POST', `/admin/users/update/${id}`, {
      token: admin,
      body: { ...userBody(t, { company_id: t.rossi, role_id: 6, email: 'audit.pw@test.test' }), password: 'Another123', password_confirmation: 'Another123' },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const e = await latest({ resource: 'users', resource_id: id, action: 'update' });
    expect(e.changes).toEqual([{ field: 'password_hash', before: null, after: REDACTED }]);
    const hash = (await db().selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst()).password_hash;
    const raw = JSON.stringify(await db().selectFrom('audit_log').selectAll().execute());
    for (const secret of [PASSWORD, 'Another123', hash, admin, acme]) expect(raw).not.toContain(secret);
    expect(redact({ oldPassword: { before: 'x', after: 'y' }, totp_secret: { before: null, after: 'S' }, name: { before: 'a', after: 'b' } })).toEqual({
      oldPassword: { before: REDACTED, after: REDACTED },
      totp_secret: { before: null, after: REDACTED },
      name: { before: 'a', after: 'b' },
    });
  });

  it('filters by record, user, company, action and Rome days, newest first, in pages', async () => {
    const name = (n: number) => ({ name: `Filter ${n}`, code_alpha: `FQ${String.fromCharCode(65 + n)}`, symbol: 'F' });
    const made = await p().api('POST', '/admin/currencies/store', { token: admin, body: name(0) });
    const id = made.body.data.id;
    for (let n = 1; n <= 3; n++) await p().api('POST', `/admin/currencies/update/${id}`, { token: admin, body: name(n) });
    const all = await log({ resource: 'currencies', resource_id: id, per_page: 2 });
    expect(all).toMatchObject({ total: 4, per_page: 2, last_page: 2, current_page: 1 });
    expect(all.data.map((e) => e.changes[0].after)).toEqual(['Filter 3', 'Filter 2']);
    const page2 = await log({ resource: 'currencies', resource_id: id, per_page: 2, page: 2 });
    expect(page2.data.map((e) => e.action)).toEqual(['update', 'create']);
    const oldest = await log({ resource: 'currencies', resource_id: id, order: 'asc', per_page: 1 });
    expect(oldest.data[0].action).toBe('create');

    const adminId = (await p().api('GET', '/visitor/getProfile', { token: admin })).body.data.id;
    expect((await log({ user_id: adminId, resource: 'currencies', resource_id: id })).total).toBe(4);
    expect((await log({ user_id: t.acmeOwner.id, resource: 'currencies' })).total).toBe(0);
    expect((await log({ company_id: t.adminCompany, resource: 'currencies', resource_id: id })).total).toBe(4);
    expect((await log({ company_id: t.beta, resource: 'currencies' })).total).toBe(0);
    expect((await log({ action: 'create', resource: 'currencies', resource_id: id })).total).toBe(1);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    expect((await log({ resource: 'currencies', resource_id: id, from: today, to: today })).total).toBe(4);
    expect((await log({ resource: 'currencies', resource_id: id, to: '2020-01-01' })).total).toBe(0);
    expect((await log({ resource: 'currencies', resource_id: id, from: '2999-01-01' })).total).toBe(0);
  });

  it('refuses bad filters with a clear message in the caller’s language', async () => {
    const r = await p().api('GET', '/admin/audit_log?from=2026-05-02&to=2026-05-01', { token: admin });
    expect(r.status).toBe(422);
    expect(r.body.errors.to).toEqual(['La data finale non può precedere quella iniziale.']);
    const en = await p().api('GET', '/admin/audit_log?from=2026-05-02&to=2026-05-01', { token: admin, lang: 'en' });
    expect(en.body.errors.to).toEqual(['The end date cannot come before the start date.']);
    expect((await p().api('GET', '/admin/audit_log?from=yesterday', { token: admin })).status).toBe(422);
    expect((await p().api('GET', '/admin/audit_log?action=explode', { token: admin })).status).toBe(422);
  });

  it('shows a carrier its own tenant only, and no route changes an entry', async () => {
    const upd = await p().api('POST', `/company/users/update/${t.acmeStaff.id}`, { token: acme, body: { first_name: 'Marta' } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const acmeLog = await log({ per_page: 100 }, acme, 'company');
    expect(acmeLog.data.some((e) => e.resource === 'users' && e.resource_id === t.acmeStaff.id && e.action === 'update')).toBe(true);
    const betaLog = await log({ per_page: 100 }, beta, 'company');
    const acmeIds = new Set(acmeLog.data.map((e) => e.id));
    expect(betaLog.data.filter((e) => acmeIds.has(e.id))).toEqual([]);
    expect((await log({ resource: 'users', resource_id: t.acmeStaff.id }, beta, 'company')).total).toBe(0);
    // the end user and the admin namespace are out of the carrier's reach
    expect((await p().api('GET', '/admin/audit_log', { token: acme })).status).toBe(403);
    const enduser = await p().login(t.rossiUser.email);
    expect((await p().api('GET', '/company/audit_log', { token: enduser })).status).toBe(403);
    const routes = p()
      .app.routeTable.filter((r) => r.url.includes('audit_log'))
      .map((r) => `${r.method} ${r.url}`);
    expect(routes.filter((r) => !r.startsWith('GET ') && !r.startsWith('HEAD '))).toEqual([]);
  });

  it('knows every write route: every POST but the declared read-only ones, and the GET write verbs', () => {
    const writes = p().app.writeRoutes;
    const posts = p()
      .app.routeTable.filter((r) => r.method === 'POST')
      .map((r) => `POST ${r.url}`);
    const readOnly = posts.filter((r) => !writes.has(r)).map((r) => r.replace('/api/v1', ''));
    // Each declares its reason (config.notAudited); a new one must be added here on purpose.
    expect(readOnly.sort()).toEqual([
      'POST /admin/events/ticket',
      'POST /admin/notifications/read',
      'POST /company/chats/getChatMessages',
      'POST /company/events/ticket',
      'POST /company/notifications/read',
      'POST /enduser/events/ticket',
      'POST /enduser/notifications/read',
      'POST /visitor/changeEmail',
      'POST /visitor/checkInvitation',
      'POST /visitor/costRequest',
      'POST /visitor/costRequest/pdf',
      'POST /visitor/login/mfa/setup',
      'POST /visitor/mfa/setup',
    ]);
    const getWrites = [...writes].filter((r) => r.startsWith('GET ')).map((r) => r.replace('/api/v1', ''));
    expect(getWrites).toContain('GET /visitor/logout');
    expect(getWrites).toContain('GET /admin/users/changeStatus/:id');
    expect(getWrites).toContain('GET /company/companies/destroy/:id');
    expect(getWrites).toContain('GET /company/rate_sheet/destroy/:id');
    expect(getWrites).toContain('GET /visitor/sessions/destroyOthers');
    expect(getWrites).toContain('GET /admin/users/destroySessions/:id');
    expect(getWrites.every((r) => /\/(destroy\w*|changeStatus|logout)(\/|$)/.test(r))).toBe(true);
    expect(writes.has('GET /api/v1/admin/audit_log')).toBe(false);
  });

  it('records an access request addressed to a carrier, its confirmation and the accounts it created, in that carrier’s log', async () => {
    const body = {
      carrier_name: 'Cliente Audit S.r.l.',
      carrier_email: 'info@cliente-audit.example',
      carrier_phone: '+39 011 555 0101',
      carrier_city: 'Torino',
      carrier_country_id: t.itCountry,
      carrier_language_id: t.itLanguage,
      carrier_postal_code: '10121',
      carrier_province: 'TO',
      carrier_website_url: 'www.cliente-audit.example',
      carrier_address: 'Corso Francia 10',
      user_first_name: 'Paolo',
      user_last_name: 'Neri',
      user_email: 'paolo@cliente-audit.example',
      user_phone: '+39 333 555 0101',
      user_password: 'Accesso123',
      user_password_confirmation: 'Accesso123',
      carrier_id: t.acme,
    };
    const sent = await p().api('POST', '/visitor/request_access/store', { body, headers: { 'x-forwarded-for': '10.77.0.1' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.data.id;
    const made = await log({ resource: 'access_requests', resource_id: id }, acme, 'company');
    expect(made.data).toHaveLength(1);
    expect(made.data[0]).toMatchObject({ action: 'create', user_id: null, user_name: null });
    expect(JSON.stringify(made.data[0].changes)).not.toContain('Accesso123');
    expect(made.data[0].changes).toContainEqual({ field: 'carrier_name', before: null, after: 'Cliente Audit S.r.l.' });
    expect((await log({ resource: 'access_requests', resource_id: id }, beta, 'company')).total).toBe(0);

    const ok = await p().api('POST', '/company/request_access/changeStatus', { token: acme, body: { id, status: 'CF' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const confirmed = await log({ resource: 'access_requests', resource_id: id, action: 'confirm' }, acme, 'company');
    expect(confirmed.data[0].changes).toEqual([{ field: 'status', before: 'OP', after: 'CF', before_text: 'Aperta', after_text: 'Confermata' }]);
    const created = (await log({ action: 'create', per_page: 2 }, acme, 'company')).data.map((e) => e.resource).sort();
    expect(created).toEqual(['companies', 'users']);
  });

  it('fails loudly when a write route answers 2xx without an entry', async () => {
    const app = Fastify();
    app.decorate('db', p().db.db);
    app.decorate('config', { ...p().config, validateResponses: true });
    await app.register(sessionPlugin);
    await app.register(auditPlugin);
    const config = { policy: 'public' as const };
    app.post('/api/v1/forgets', { config }, async () => ({ status: true }));
    app.post('/api/v1/records', { config }, async (req) => {
      req.audit({ action: 'create', resource: 'hook_test', resource_id: 1 });
      req.audit({ action: 'update', resource: 'hook_test', resource_id: 2 });
      return { status: true };
    });
    app.post('/api/v1/refuses', { config }, async (req, reply) => {
      req.audit({ action: 'create', resource: 'hook_test', resource_id: 3 });
      return reply.status(409).send({ message: 'no' });
    });
    app.post('/api/v1/reads', { config: { ...config, notAudited: 'a read' } }, async () => ({ status: true }));
    app.get('/api/v1/things/destroy/:id', { config }, async () => ({ status: true }));
    app.get('/api/v1/things', { config }, async () => ({ status: true }));
    await app.ready();
    const call = (method: 'GET' | 'POST', url: string) => app.inject({ method, url: `/api/v1${url}`, headers: { 'x-api-password': p().config.apiPassword } });
    const before = await count();
    expect((await call('POST', '/forgets')).statusCode).toBe(500);
    expect((await call('GET', '/things/destroy/1')).statusCode).toBe(500);
    expect((await call('POST', '/reads')).statusCode).toBe(200);
    expect((await call('GET', '/things')).statusCode).toBe(200);
    expect((await call('POST', '/refuses')).statusCode).toBe(409);
    expect(await count()).toBe(before);
    expect((await call('POST', '/records')).statusCode).toBe(200);
    const rows = await db().selectFrom('audit_log').selectAll().where('resource', '=', 'hook_test').orderBy('id').execute();
    expect(rows.map((r: any) => [r.action, Number(r.resource_id), r.user_id, r.tenant_id])).toEqual([
      ['create', 1, null, null],
      ['update', 2, null, null],
    ]);
    expect(rows[0].at).toBe(rows[1].at); // one statement
    await app.close();
  });

  it('keeps AUDIT_DAYS days', async () => {
    expect(loadConfig({ AUDIT_DAYS: '30' }).auditDays).toBe(30);
    expect(loadConfig({}).auditDays).toBe(400);
    const day = 86_400_000;
    const at = (days: number) => new Date(Date.now() - days * day).toISOString();
    const row = (days: number) => ({ at: at(days), action: 'update', resource: 'retention_test', resource_id: days });
    await db()
      .insertInto('audit_log')
      .values([row(29), row(31), row(399), row(401)])
      .execute();
    const kept = async () =>
      (await db().selectFrom('audit_log').select('resource_id').where('resource', '=', 'retention_test').orderBy('resource_id').execute()).map((r: any) =>
        Number(r.resource_id),
      );
    const quiet = { info: () => {}, error: (e: unknown) => console.error(e) };
    clearInterval(await keepAuditDays(p().db.db, p().config.auditDays, quiet));
    expect(await kept()).toEqual([29, 31, 399]);
    clearInterval(await keepAuditDays(p().db.db, 30, quiet));
    expect(await kept()).toEqual([29]);
  });
});
