import { beforeAll, expect, it } from 'vitest';
import { DEMO, describeEachDb } from './helpers.js';
import { PASSWORD, createTenants, endUserBody, userBody, type Tenants } from './accountsFixtures.js';

/** Every company and user route, as the server registers them (the test fails when one is added unseen). */
const ROUTES = ['admin', 'company'].flatMap((ns) =>
  ['companies', 'users'].flatMap((area) => [
    `GET /api/v1/${ns}/${area}`,
    `GET /api/v1/${ns}/${area}/show/:id`,
    `POST /api/v1/${ns}/${area}/store`,
    `POST /api/v1/${ns}/${area}/update/:id`,
    `GET /api/v1/${ns}/${area}/destroy/:id`,
    `GET /api/v1/${ns}/${area}/changeStatus/:id`,
    // the list's export (docs/list-exports.md): the list's own scope
    `GET /api/v1/${ns}/${area}/export`,
  ]),
);
// Admins end every session of a user (routes/visitor/sessions.ts).
ROUTES.push('GET /api/v1/admin/users/destroySessions/:id');
// Admins see and reset a user's two-step verification (routes/admin/mfaReset.ts; refused to others in the sweep).
ROUTES.push('GET /api/v1/admin/users/mfa/:id', 'POST /api/v1/admin/users/mfaReset/:id');

describeEachDb('tenancy of companies and users', (p) => {
  let t: Tenants;
  let acmeCompanies: number[];
  let acmeUsers: number[];
  /** The first carrier's tenant: its companies and their users, every column. */
  const acmeTenant = async () => {
    const db = p().db.db;
    const companies = await db
      .selectFrom('companies')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', t.acme), eb('carrier_id', '=', t.acme)]))
      .orderBy('id')
      .execute();
    const users = await db
      .selectFrom('users')
      .selectAll()
      .where(
        'company_id',
        'in',
        companies.map((c) => c.id),
      )
      .orderBy('id')
      .execute();
    const tokens = await db
      .selectFrom('auth_tokens')
      .select(['id', 'user_id'])
      .where(
        'user_id',
        'in',
        users.map((u) => u.id),
      )
      .orderBy('id')
      .execute();
    return { companies, users, tokens };
  };

  beforeAll(async () => {
    t = await createTenants(p());
    acmeCompanies = [t.acme, t.rossi];
    acmeUsers = [t.acmeOwner.id, t.acmeStaff.id, t.rossiUser.id];
  });

  it('covers every company and user route', () => {
    const registered = p()
      .app.routeTable.filter((r) => /^\/api\/v1\/(admin|company)\/(companies|users)(\/|$)/.test(r.url) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(registered.sort()).toEqual([...ROUTES].sort());
  });

  /** Calls every route of a namespace with the first carrier's ids; answers the statuses seen. */
  async function callEverything(token: string, ns: 'admin' | 'company') {
    const seen: Array<{ call: string; status: number; body: any }> = [];
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const r = await p().api(method, url, { token, body, lang: 'en' });
      seen.push({ call: `${method} ${url}`, status: r.status, body: r.body });
      return r;
    };
    for (const area of ['companies', 'users'] as const) {
      const ids = area === 'companies' ? acmeCompanies : acmeUsers;
      await call('GET', `/${ns}/${area}?per_page=100`);
      await call('GET', `/${ns}/${area}?per_page=100&search=acme`);
      await call('GET', `/${ns}/${area}?per_page=100&${area === 'companies' ? `carrier_id=${t.acme}` : `company_id=${t.rossi}`}`);
      // the export as CSV text: a name of the first carrier's tenant in it would be a leak (`leaks` below)
      await call('GET', `/${ns}/${area}/export?format=csv&${area === 'companies' ? `carrier_id=${t.acme}` : `company_id=${t.rossi}`}`);
      for (const id of ids) {
        await call('GET', `/${ns}/${area}/show/${id}`);
        await call(
          'POST',
          `/${ns}/${area}/update/${id}`,
          area === 'companies'
            ? { legal_name: 'Hijacked', company_role_id: 1, carrier_id: t.beta, status_id: 0 }
            : {
                first_name: 'Hijacked',
                email: `hijack${id}@x.test`,
                password: 'Hijack123',
                password_confirmation: 'Hijack123',
                company_id: t.bianchi,
                role_id: 1,
                status_id: 0,
              },
        );
        await call('GET', `/${ns}/${area}/changeStatus/${id}`);
        await call('GET', `/${ns}/${area}/destroy/${id}`);
      }
      // Creating into the first carrier's tenant by naming it in the body.
      await call(
        'POST',
        `/${ns}/${area}/store`,
        area === 'companies'
          ? endUserBody(t, { legal_name: 'Planted in Acme', carrier_id: t.acme, exp_category_id: null, std_category_id: null })
          : userBody(t, { email: `planted-${ns}@x.test`, company_id: t.rossi, role_id: 6 }),
      );
    }
    return seen;
  }

  const leaks = (seen: Array<{ body: any }>) => {
    const text = JSON.stringify(seen.map((s) => s.body));
    return ['Acme Trasporti', 'Rossi Logistica', DEMO.carrier, DEMO.enduser, t.acmeStaff.email].filter((s) => text.includes(s));
  };

  it('a second carrier finds nothing of the first carrier’s tenant and changes nothing in it', async () => {
    const beta = await p().login(t.betaOwner.email, PASSWORD);
    const acmeSession = await p().login(DEMO.carrier);
    const before = await acmeTenant();
    const seen = await callEverything(beta, 'company');
    for (const s of seen) {
      if (/\/(show|update|changeStatus|destroy)\//.test(s.call)) expect(s.status, s.call).toBe(404);
      else if (s.call.includes('/export?')) expect([200, 404], s.call).toContain(s.status);
      else if (s.call.startsWith('GET')) {
        expect(s.status, s.call).toBe(200);
        for (const row of s.body.data) {
          if (s.call.includes('/companies')) expect(row.id === t.beta || row.carrier_id === t.beta, s.call).toBe(true);
          else expect([t.beta, t.bianchi], s.call).toContain(row.company_id);
        }
      }
    }
    expect(leaks(seen)).toEqual([]);
    // The stores either failed or landed in the caller's own tenant.
    const userStore = seen.find((s) => s.call === 'POST /company/users/store')!;
    expect(userStore.status).toBe(422);
    expect(userStore.body.errors.company_id).toEqual(['The selected company is invalid.']);
    const companyStore = seen.find((s) => s.call === 'POST /company/companies/store')!;
    expect(companyStore.status).toBe(200);
    expect(companyStore.body.data).toMatchObject({ carrier_id: t.beta, company_role_id: 3 });
    expect(await acmeTenant()).toEqual(before);
    expect((await p().api('GET', '/visitor/getProfile', { token: acmeSession })).status).toBe(200);
    // The admin namespace is not the carrier's.
    for (const s of await callEverything(beta, 'admin')) expect(s.status, s.call).toBe(403);
    expect(await acmeTenant()).toEqual(before);
  });

  it('an end user of the first carrier reaches no company or user route at all', async () => {
    const enduser = await p().login(DEMO.enduser);
    const before = await acmeTenant();
    for (const ns of ['admin', 'company'] as const) {
      const seen = await callEverything(enduser, ns);
      for (const s of seen) expect(s.status, s.call).toBe(403);
      expect(leaks(seen)).toEqual([]);
    }
    expect(await acmeTenant()).toEqual(before);
  });

  it('an end user of the second carrier is refused too, and signed-out callers get 401', async () => {
    const other = await p().login(t.bianchiUser.email, PASSWORD);
    const before = await acmeTenant();
    for (const s of await callEverything(other, 'company')) expect(s.status, s.call).toBe(403);
    for (const route of ROUTES) {
      const [method, url] = route.split(' ');
      const r = await p().api(method as 'GET', url.replace(':id', String(t.acme)), { body: method === 'POST' ? {} : undefined });
      expect(r.status, route).toBe(401);
    }
    expect(await acmeTenant()).toEqual(before);
  });
});
