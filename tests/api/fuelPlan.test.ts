import { beforeAll, expect, it } from 'vitest';
import { DEMO, describeEachDb } from './helpers.js';
import { createTenants, type Tenants } from './accountsFixtures.js';

const PLAN = { fuel_base_price: '1.507', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: '10' };

/**
 * The fuel plan on carrier companies (issue 21 item 2, pricing.md §7) and the diesel prices' unique
 * month (item 1): who may set a plan, what an end-user company keeps, each bad value's 422 with its
 * field in the caller's language, the audit entry, and the duplicate month naming the row that holds it.
 */
describeEachDb('fuel plan and diesel prices (issue 21)', (p) => {
  let t: Tenants;
  let admin: string;
  let carrier: string;
  beforeAll(async () => {
    t = await createTenants(p());
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
  });
  const stored = (id: number) =>
    p()
      .db.db.selectFrom('companies')
      .select(['fuel_base_price', 'fuel_step', 'fuel_step_percent', 'fuel_max_percent'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('the admin sets a carrier’s plan; show and list answer it; the audit log records the change', async () => {
    const r = await p().api('POST', `/admin/companies/update/${t.beta}`, { token: admin, body: PLAN });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored(t.beta)).toEqual({ fuel_base_price: '1.507', fuel_step: '0.02', fuel_step_percent: '0.5', fuel_max_percent: '10' });
    const show = await p().api('GET', `/admin/companies/show/${t.beta}`, { token: admin });
    expect(show.body.data).toMatchObject({ fuel_base_price: '1.507', fuel_step: '0.02', fuel_step_percent: '0.5', fuel_max_percent: '10' });
    const list = await p().api('GET', '/admin/companies?per_page=100', { token: admin });
    expect(list.body.data.find((c: any) => c.id === t.beta)).toMatchObject({ fuel_base_price: '1.507', fuel_step: '0.02' });
    const entry = await p()
      .db.db.selectFrom('audit_log')
      .select(['action', 'resource', 'resource_id', 'changes'])
      .where('resource', '=', 'companies')
      .where('resource_id', '=', t.beta)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.action).toBe('update');
    expect(JSON.parse(String(entry.changes))).toMatchObject({
      fuel_base_price: { before: null, after: '1.507' },
      fuel_step: { before: null, after: '0.02' },
      fuel_step_percent: { before: null, after: '0.5' },
      fuel_max_percent: { before: null, after: '10' },
    });
    // Emptying base and step switches the surcharge off.
    const off = await p().api('POST', `/admin/companies/update/${t.beta}`, { token: admin, body: { fuel_base_price: null, fuel_step: '' } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(await stored(t.beta)).toMatchObject({ fuel_base_price: null, fuel_step: null, fuel_step_percent: '0.5' });
  });

  it('the carrier sets its own plan, and cannot set another company’s', async () => {
    const own = await p().api('POST', `/company/companies/update/${t.acme}`, { token: carrier, body: PLAN, lang: 'it' });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(await stored(t.acme)).toMatchObject({ fuel_base_price: '1.507', fuel_step: '0.02' });
    const show = await p().api('GET', `/company/companies/show/${t.acme}`, { token: carrier });
    expect(show.body.data).toMatchObject({ fuel_base_price: '1.507', fuel_step_percent: '0.5' });
    const before = await stored(t.beta);
    const other = await p().api('POST', `/company/companies/update/${t.beta}`, { token: carrier, body: PLAN });
    expect(other.status).toBe(404);
    expect(await stored(t.beta)).toEqual(before);
  });

  it('an end-user company never keeps a plan, from the admin or from its carrier', async () => {
    for (const [token, ns] of [
      [admin, 'admin'],
      [carrier, 'company'],
    ] as const) {
      // A plan left from an earlier role is cleared by the next save, whatever the body says.
      await p().db.db.updateTable('companies').set({ fuel_base_price: '1.4', fuel_step: '0.01' }).where('id', '=', t.rossi).execute();
      const r = await p().api('POST', `/${ns}/companies/update/${t.rossi}`, { token, body: { ...PLAN, phone: '0612345' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(await stored(t.rossi)).toEqual({ fuel_base_price: null, fuel_step: null, fuel_step_percent: null, fuel_max_percent: null });
      const show = await p().api('GET', `/${ns}/companies/show/${t.rossi}`, { token });
      expect(show.body.data).toMatchObject({ phone: '0612345', fuel_base_price: null, fuel_step: null });
    }
  });

  it('each bad value answers 422 with its field, in the caller’s language, and changes nothing', async () => {
    const before = await stored(t.acme);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fuel_base_price: '0' }, 'fuel_base_price'],
      [{ fuel_base_price: '-1.2' }, 'fuel_base_price'],
      [{ fuel_base_price: '1.5071' }, 'fuel_base_price'],
      [{ fuel_step: '0' }, 'fuel_step'],
      [{ fuel_step: '0.0005' }, 'fuel_step'],
      [{ fuel_step_percent: '-0.5' }, 'fuel_step_percent'],
      [{ fuel_step_percent: '100.01' }, 'fuel_step_percent'],
      [{ fuel_step_percent: '0.125' }, 'fuel_step_percent'],
      [{ fuel_max_percent: '101' }, 'fuel_max_percent'],
      [{ fuel_max_percent: 'dieci' }, 'fuel_max_percent'],
    ];
    for (const [ns, token, id] of [
      ['admin', admin, t.acme],
      ['company', carrier, t.acme],
    ] as const) {
      for (const [body, field] of cases) {
        const r = await p().api('POST', `/${ns}/companies/update/${id}`, { token, body, lang: 'it' });
        expect(r.status, `${ns} ${JSON.stringify(body)}`).toBe(422);
        expect(Object.keys(r.body.errors), JSON.stringify(body)).toEqual([field]);
        expect(r.body.message).toBe('I dati inviati non sono validi.');
      }
    }
    expect(await stored(t.acme)).toEqual(before);
    const it = await p().api('POST', `/company/companies/update/${t.acme}`, { token: carrier, body: { fuel_step: '0' }, lang: 'it' });
    expect(it.body.errors.fuel_step).toEqual(['Il campo scatto del gasolio deve essere maggiore di 0 e minore di 100.']);
    const en = await p().api('POST', `/company/companies/update/${t.acme}`, { token: carrier, body: { fuel_max_percent: '120' }, lang: 'en' });
    expect(en.body.errors.fuel_max_percent).toEqual(['The maximum fuel surcharge field must be between 0 and 100.']);
    const fr = await p().api('POST', `/company/companies/update/${t.acme}`, { token: carrier, body: { fuel_base_price: '-1' }, lang: 'fr' });
    expect(fr.body.errors.fuel_base_price).toEqual(['Le champ gazole de référence doit être supérieur à 0 et inférieur à 100.']);
  });

  it('a duplicate month names the row that holds it; a bad month or price is 422 with its field', async () => {
    // The demo seeds the last months' prices (server/seed/tariffs.ts): start from an empty table.
    await p().db.db.deleteFrom('diesel_prices').execute();
    const first = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body: { month: '2026-11', price: '1.587' } });
    expect(first.status).toBe(200);
    const id = first.body.data.id;
    const it = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body: { month: '2026-11', price: '1.6' }, lang: 'it' });
    expect(it.status).toBe(422);
    expect(it.body.errors).toEqual({ month: ['Il valore di mese è già in uso (2026-11).'] });
    const en = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body: { month: '2026-11', price: '1.6' }, lang: 'en' });
    expect(en.body.errors.month[0]).toBe('The month has already been taken (2026-11).');
    // Moving another month onto it: the same message on update.
    const other = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body: { month: '2026-10', price: '1.612' } });
    const moved = await p().api('POST', `/admin/diesel_prices/update/${other.body.data.id}`, {
      token: admin,
      body: { month: '2026-11', price: '1.612' },
      lang: 'fr',
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors.month[0]).toBe('La valeur de mois est déjà utilisée (2026-11).');
    // Saving a row with its own month is no duplicate.
    expect((await p().api('POST', `/admin/diesel_prices/update/${id}`, { token: admin, body: { month: '2026-11', price: '1.59' } })).status).toBe(200);
    for (const [body, field] of [
      [{ month: '2026-1', price: '1.5' }, 'month'],
      [{ month: 'novembre', price: '1.5' }, 'month'],
      [{ month: '2026-08', price: '0' }, 'price'],
      [{ month: '2026-08', price: '-0.5' }, 'price'],
    ] as const) {
      const r = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body, lang: 'it' });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual([field]);
    }
    const months = await p().db.db.selectFrom('diesel_prices').select('month').orderBy('month').execute();
    expect(months.map((m) => m.month)).toEqual(['2026-10', '2026-11']);
  });
});
