import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEMO, describeEachDb } from './helpers.js';
import { PASSWORD, createTenants, userBody, type Tenants } from './accountsFixtures.js';
import { countDependents, forgetCatalogue } from '../../server/lib/dependents.js';

describeEachDb('users under /admin and /company', (p) => {
  let t: Tenants;
  let admin: string;
  let carrier: string;
  beforeAll(async () => {
    t = await createTenants(p());
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
  });
  const userRow = (id: number) => p().db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const count = async () =>
    Number(
      (
        await p()
          .db.db.selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('admin: lists every user in the paged shape, with the company name and never a password', async () => {
    const r = await p().api('GET', '/admin/users?per_page=100&sort=email&order=asc', { token: admin });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['current_page', 'data', 'last_page', 'per_page', 'total']);
    expect(r.body.total).toBe(await count());
    const emails = r.body.data.map((u: any) => u.email);
    expect(emails).toEqual([...emails].sort());
    expect(r.body.data.find((u: any) => u.email === DEMO.enduser)).toMatchObject({
      company_legal_name: 'Rossi Logistica S.r.l.',
      role_name: 'Enduser',
      language_name: 'Italian',
      country_name: 'Italy',
      status_id: 1,
    });
    expect(JSON.stringify(r.body)).not.toMatch(/password/);
    const byCompany = await p().api('GET', `/admin/users?company_id=${t.beta}`, { token: admin });
    expect(byCompany.body.data.map((u: any) => u.id)).toEqual([t.betaOwner.id]);
    const byRole = await p().api('GET', '/admin/users?role_id=6&per_page=100', { token: admin });
    expect(byRole.body.data.every((u: any) => u.role_id === 6)).toBe(true);
    const search = await p().api('GET', '/admin/users?search=BIANCHI', { token: admin });
    expect(search.body.data.map((u: any) => u.id)).toEqual([t.bianchiUser.id]);
  });

  it('admin: shows a user; 404 for an unknown id', async () => {
    const r = await p().api('GET', `/admin/users/show/${t.rossiUser.id}`, { token: admin });
    expect(r.body.data).toMatchObject({ id: t.rossiUser.id, first_name: 'Elena', company_legal_name: 'Rossi Logistica S.r.l.' });
    expect(r.body.data.password_hash).toBeUndefined();
    expect((await p().api('GET', '/admin/users/show/999999', { token: admin })).status).toBe(404);
  });

  it('admin: creates a user whose role fits its company; the user signs in with the password', async () => {
    const r = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: ' Giulia@Verdi.TEST ', status_id: 0 }),
      lang: 'en',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: true, message: 'User created successfully' });
    expect(r.body.data).toMatchObject({ email: 'giulia@verdi.test', company_id: t.rossi, role_id: 6, status_id: 1, phone: '+393331234567' });
    expect(r.body.data.password).toBeUndefined();
    const row = await userRow(r.body.data.id);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect((await p().api('POST', '/visitor/login', { body: { email: 'GIULIA@verdi.test', password: PASSWORD } })).status).toBe(200);
  });

  it('refuses a duplicate email without case, with a clear message, and stores nothing', async () => {
    const before = await count();
    const r = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'ENDUSER@Portal.Demo' }),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.email).toEqual(['Questo indirizzo email è già usato da un altro utente.']);
    const en = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'enduser@portal.demo' }),
      lang: 'en',
    });
    expect(en.body.errors.email).toEqual(['This email address is already used by another user.']);
    expect(await count()).toBe(before);
  });

  it('applies the password rule and its confirmation on create', async () => {
    const before = await count();
    for (const pw of ['short1', 'lettersonly', '12345678', 'a1'.repeat(65)]) {
      const r = await p().api('POST', '/admin/users/store', {
        token: admin,
        body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'pw@test.test', password: pw, password_confirmation: pw }),
        lang: 'en',
      });
      expect(r.status, pw).toBe(422);
      expect(r.body.errors.password, pw).toEqual(['The password must be 8 to 128 characters long and contain both letters and numbers.']);
    }
    const mismatch = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'pw@test.test', password_confirmation: 'Other1234' }),
      lang: 'en',
    });
    expect(mismatch.body.errors.password_confirmation).toEqual(['The password confirmation does not match the password.']);
    const missing = await p().api('POST', '/admin/users/store', { token: admin, body: { first_name: 'X' } });
    expect(Object.keys(missing.body.errors).sort()).toEqual(
      ['address', 'city', 'company_id', 'country_id', 'email', 'language_id', 'last_name', 'postal_code', 'role_id', 'title'].sort(),
    );
    expect(missing.body.errors.title).toEqual(['Il campo titolo è obbligatorio.']);
    expect(await count()).toBe(before);
  });

  it('admin: a role must fit the company role', async () => {
    for (const [company, role] of [
      [t.rossi, 5],
      [t.acme, 6],
      [t.acme, 1],
      [t.adminCompany, 3],
    ]) {
      const r = await p().api('POST', '/admin/users/store', {
        token: admin,
        body: userBody(t, { company_id: company, role_id: role, email: `fit${role}@test.test` }),
        lang: 'en',
      });
      expect(r.status).toBe(422);
      expect(r.body.errors.role_id).toEqual(['This role does not fit the chosen company.']);
    }
    const support = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.acme, role_id: 7, support_role_id: 2, email: 'help@acme.test' }),
    });
    expect(support.body.data).toMatchObject({ role_id: 7, support_role_id: 2 });
    const notSupport = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.acme, role_id: 5, support_role_id: 2, email: 'ops@acme.test' }),
    });
    expect(notSupport.body.data).toMatchObject({ role_id: 5, support_role_id: null });
  });

  it('admin: updates a user; the password is optional, and a new one ends the user’s sessions', async () => {
    const created = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.bianchi, role_id: 6, email: 'luca@bianchi.test' }),
    });
    const id = created.body.data.id;
    const session = await p().login('luca@bianchi.test', PASSWORD);
    const r = await p().api('POST', `/admin/users/update/${id}`, {
      token: admin,
      body: { first_name: 'Luca', phone: '+39 02 12 34', password: null, password_confirmation: null },
      lang: 'en',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ first_name: 'Luca', phone: '+39021234', last_name: 'Verdi', email: 'luca@bianchi.test' });
    expect((await p().api('GET', '/visitor/getProfile', { token: session })).status).toBe(200);
    const weak = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { password: 'weak', password_confirmation: 'weak' } });
    expect(weak.status).toBe(422);
    const pw = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { password: 'NewSecret9', password_confirmation: 'NewSecret9' } });
    expect(pw.status).toBe(200);
    expect((await p().api('GET', '/visitor/getProfile', { token: session })).status).toBe(401);
    expect((await p().api('POST', '/visitor/login', { body: { email: 'luca@bianchi.test', password: 'NewSecret9' } })).status).toBe(200);
    const taken = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { email: 'Carrier@portal.demo' } });
    expect(taken.status).toBe(422);
    const sameEmail = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { email: 'LUCA@bianchi.test' } });
    expect(sameEmail.status).toBe(200);
    const misfit = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { company_id: t.acme } });
    expect(misfit.status).toBe(422);
    const moved = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { company_id: t.acme, role_id: 5 } });
    expect(moved.body.data).toMatchObject({ company_id: t.acme, role_id: 5 });
    const self = await p().api('POST', `/admin/users/update/${(await p().api('GET', '/visitor/getProfile', { token: admin })).body.user.id}`, {
      token: admin,
      body: { role_id: 2 },
      lang: 'en',
    });
    expect(self.status).toBe(422);
    expect(self.body.errors.role_id).toEqual(['You cannot change your own role or company.']);
  });

  it('changeStatus switches 1 ↔ 0; a deactivated user is signed out and told so at sign-in', async () => {
    const session = await p().login(t.acmeStaff.email, PASSWORD);
    const off = await p().api('GET', `/admin/users/changeStatus/${t.acmeStaff.id}`, { token: admin, lang: 'en' });
    expect(off.body).toMatchObject({ status: true, data: { id: t.acmeStaff.id, status_id: 0 } });
    expect((await p().api('GET', '/visitor/getProfile', { token: session })).status).toBe(401);
    const login = await p().api('POST', '/visitor/login', { body: { email: t.acmeStaff.email, password: PASSWORD }, lang: 'en' });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe('Your account is deactivated. Please contact your administrator.');
    const on = await p().api('GET', `/admin/users/changeStatus/${t.acmeStaff.id}`, { token: admin });
    expect(on.body.data.status_id).toBe(1);
    expect((await p().api('POST', '/visitor/login', { body: { email: t.acmeStaff.email, password: PASSWORD } })).status).toBe(200);
    const me = (await p().api('GET', '/visitor/getProfile', { token: admin })).body.user.id;
    const self = await p().api('GET', `/admin/users/changeStatus/${me}`, { token: admin, lang: 'en' });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('You cannot deactivate your own account.');
  });

  it('admin: deletes a user (sessions go with it), never itself', async () => {
    const created = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'temp@rossi.test' }),
    });
    const session = await p().login('temp@rossi.test', PASSWORD);
    const r = await p().api('GET', `/admin/users/destroy/${created.body.data.id}`, { token: admin, lang: 'en' });
    expect(r.body).toMatchObject({ status: true, message: 'User deleted successfully', data: { id: created.body.data.id } });
    expect((await p().api('GET', '/visitor/getProfile', { token: session })).status).toBe(401);
    expect((await p().api('GET', `/admin/users/show/${created.body.data.id}`, { token: admin })).status).toBe(404);
    const me = (await p().api('GET', '/visitor/getProfile', { token: admin })).body.user.id;
    expect((await p().api('GET', `/admin/users/destroy/${me}`, { token: admin })).status).toBe(409);
  });

  it('a user and a company with support tickets are refused, naming them; deactivating stays possible', async () => {
    const db = p().db.db;
    const created = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.bianchi, role_id: 6, email: 'ticket@bianchi.test' }),
    });
    const id = created.body.data.id;
    await db
      .insertInto('tickets' as any)
      .values({
        subject: 'Ritiro mancato',
        status: 'open',
        enduser_company_id: t.bianchi,
        enduser_user_id: id,
        carrier_company_id: t.beta,
        created_at: new Date().toISOString(),
        last_message_at: new Date().toISOString(),
      } as any)
      .execute();
    forgetCatalogue(db);
    const user = await p().api('GET', `/admin/users/destroy/${id}`, { token: admin });
    expect(user.status).toBe(409);
    expect(user.body.message).toBe('Impossibile eliminare l’utente perché ha ancora: ticket di assistenza (1). Disattiva l’utente invece.');
    const company = await p().api('GET', `/admin/companies/destroy/${t.bianchi}`, { token: admin, lang: 'en' });
    expect(company.body.message).toBe('This company cannot be deleted because it still has: users (2), support tickets (1). Deactivate it instead.');
    expect((await p().api('GET', `/admin/users/changeStatus/${id}`, { token: admin })).body.data.status_id).toBe(0);
  });

  it('a user with history is refused with what it has, and a reference the check misses is refused by the database', async () => {
    const db = p().db.db;
    const created = await p().api('POST', '/admin/users/store', {
      token: admin,
      body: userBody(t, { company_id: t.rossi, role_id: 6, email: 'history@rossi.test' }),
    });
    const id = created.body.data.id;
    // A table of another area, referring to users as requests, tickets and messages do.
    await sql`CREATE TABLE zz_history (id integer primary key, user_id integer not null references users(id))`.execute(db);
    try {
      await sql`INSERT INTO zz_history (id, user_id) VALUES (1, ${id})`.execute(db);
      forgetCatalogue(db);
      expect(await countDependents(db, [{ table: 'zz_history', columns: ['user_id', 'no_such_column'], what: 'requests' }], id)).toEqual({ requests: 1 });
      expect(await countDependents(db, [{ table: 'no_such_table', columns: ['user_id'], what: 'requests' }], id)).toEqual({});
      const r = await p().api('GET', `/admin/users/destroy/${id}`, { token: admin, lang: 'en' });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('This user is still referred to by other records. Deactivate the user instead.');
      expect((await p().api('GET', `/admin/users/show/${id}`, { token: admin })).status).toBe(200);
    } finally {
      await sql`DROP TABLE zz_history`.execute(db);
      forgetCatalogue(db);
    }
  });

  it('carrier: lists the users of its own company and of its end-user companies only', async () => {
    const r = await p().api('GET', '/company/users?per_page=100', { token: carrier });
    expect(r.status).toBe(200);
    const companies = new Set(r.body.data.map((u: any) => u.company_id));
    const rows = await p()
      .db.db.selectFrom('companies')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', t.acme), eb('carrier_id', '=', t.acme)]))
      .execute();
    const allowed = new Set(rows.map((x) => x.id));
    for (const c of companies) expect(allowed.has(c as number)).toBe(true);
    const ids = r.body.data.map((u: any) => u.id);
    expect(ids).toContain(t.rossiUser.id);
    expect(ids).toContain(t.acmeStaff.id);
    expect(ids).not.toContain(t.betaOwner.id);
    expect(ids).not.toContain(t.bianchiUser.id);
  });

  it('carrier: creates Carrier Users and Support in its company, Endusers in its end-user companies, nothing else', async () => {
    const own = await p().api('POST', '/company/users/store', { token: carrier, body: userBody(t, { email: 'new.staff@acme.test', status_id: 0 }) });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ company_id: t.acme, role_id: 5, status_id: 1 });
    const support = await p().api('POST', '/company/users/store', { token: carrier, body: userBody(t, { email: 'support@acme.test', role_id: 7 }) });
    expect(support.body.data).toMatchObject({ company_id: t.acme, role_id: 7 });
    const customer = await p().api('POST', '/company/users/store', { token: carrier, body: userBody(t, { email: 'new@rossi.test', company_id: t.rossi }) });
    expect(customer.body.data).toMatchObject({ company_id: t.rossi, role_id: 6 });
    const before = await count();
    for (const [company, role] of [
      [undefined, 3],
      [undefined, 1],
      [undefined, 6],
      [t.rossi, 5],
      [t.rossi, 3],
    ]) {
      const r = await p().api('POST', '/company/users/store', {
        token: carrier,
        body: userBody(t, { email: 'raise@acme.test', company_id: company, role_id: role }),
        lang: 'en',
      });
      expect(r.status, `${company} ${role}`).toBe(422);
      expect(r.body.errors.role_id).toEqual(['You cannot give this role to a user of the chosen company.']);
    }
    for (const company of [t.bianchi, t.beta, t.adminCompany, 999999]) {
      const r = await p().api('POST', '/company/users/store', {
        token: carrier,
        body: userBody(t, { email: 'elsewhere@acme.test', company_id: company }),
        lang: 'en',
      });
      expect(r.status).toBe(422);
      expect(r.body.errors.company_id).toEqual(['The selected company is invalid.']);
    }
    expect(await count()).toBe(before);
  });

  it('carrier: updates its users within its tenant; role, company and status in the body change nothing they may not', async () => {
    const created = await p().api('POST', '/company/users/store', { token: carrier, body: userBody(t, { email: 'anna@rossi.test', company_id: t.rossi }) });
    const id = created.body.data.id;
    const before = await userRow(id);
    for (const body of [{ role_id: 1 }, { role_id: 3 }, { company_id: t.bianchi }, { company_id: t.beta, role_id: 3 }, { company_id: t.acme }]) {
      const r = await p().api('POST', `/company/users/update/${id}`, { token: carrier, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
    const status = await p().api('POST', `/company/users/update/${id}`, { token: carrier, body: { status_id: 0, first_name: 'Anna' } });
    expect(status.body.data).toMatchObject({ status_id: 1, first_name: 'Anna', role_id: 6, company_id: t.rossi });
    const after = await userRow(id);
    expect({ ...after, first_name: before.first_name, updated_at: before.updated_at }).toEqual(before);
    // Into its own company as Carrier Users: allowed, inside the tenant.
    const moved = await p().api('POST', `/company/users/update/${id}`, { token: carrier, body: { company_id: t.acme, role_id: 5 } });
    expect(moved.body.data).toMatchObject({ company_id: t.acme, role_id: 5 });
  });

  it('carrier: its own account is editable but not its role; staff cannot touch the owner account', async () => {
    const self = await p().api('POST', `/company/users/update/${t.acmeOwner.id}`, { token: carrier, body: { phone: '+39 02 000' } });
    expect(self.status).toBe(200);
    expect((await p().api('POST', `/company/users/update/${t.acmeOwner.id}`, { token: carrier, body: { role_id: 5 } })).status).toBe(422);
    expect((await p().api('GET', `/company/users/destroy/${t.acmeOwner.id}`, { token: carrier })).status).toBe(409);
    expect((await p().api('GET', `/company/users/changeStatus/${t.acmeOwner.id}`, { token: carrier })).status).toBe(409);
    const staff = await p().login(t.acmeStaff.email, PASSWORD);
    const ownerRow = await userRow(t.acmeOwner.id);
    for (const [method, url, body] of [
      ['POST', `/company/users/update/${t.acmeOwner.id}`, { email: 'takeover@acme.test', password: 'Takeover123', password_confirmation: 'Takeover123' }],
      ['GET', `/company/users/destroy/${t.acmeOwner.id}`, undefined],
      ['GET', `/company/users/changeStatus/${t.acmeOwner.id}`, undefined],
    ] as const) {
      const r = await p().api(method, url, { token: staff, body, lang: 'en' });
      expect(r.status, url).toBe(403);
    }
    expect(await userRow(t.acmeOwner.id)).toEqual(ownerRow);
    // Staff may still see the owner in the list and open it.
    expect((await p().api('GET', `/company/users/show/${t.acmeOwner.id}`, { token: staff })).status).toBe(200);
  });

  it('carrier: deactivates and deletes its end users; deactivation ends their sessions', async () => {
    const created = await p().api('POST', '/company/users/store', { token: carrier, body: userBody(t, { email: 'piero@rossi.test', company_id: t.rossi }) });
    const id = created.body.data.id;
    const session = await p().login('piero@rossi.test', PASSWORD);
    expect((await p().api('GET', `/company/users/changeStatus/${id}`, { token: carrier })).body.data.status_id).toBe(0);
    expect((await p().api('GET', '/visitor/getProfile', { token: session })).status).toBe(401);
    expect((await p().api('POST', '/visitor/login', { body: { email: 'piero@rossi.test', password: PASSWORD } })).status).toBe(403);
    expect((await p().api('GET', `/company/users/destroy/${id}`, { token: carrier })).status).toBe(200);
    expect((await p().api('GET', `/company/users/show/${id}`, { token: carrier })).status).toBe(404);
  });
});
