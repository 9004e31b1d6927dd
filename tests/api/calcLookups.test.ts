import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, DEMO } from './helpers.js';
import { buildPricingWorld, type PricingWorld } from './pricingFixtures.js';

/** What the calculator's selectors rely on: companies_list and enduser_list in the caller's scope (server.md §2). */
describeEachDb('calculator lookups', (p) => {
  let w: PricingWorld;
  const t: Record<string, string> = {};
  const names = (r: any) => r.body.data.map((c: any) => c.legal_name);
  beforeAll(async () => {
    w = await buildPricingWorld(p().db.db, 'look');
    t.admin = await p().login(DEMO.admin);
    t.carrier = await p().login(w.logins.carrier);
    t.endUser = await p().login(w.logins.endUser);
  });

  it('companies_list: admins see all, filtered by role; carriers their own and their end users; end users themselves', async () => {
    const sellers = await p().api('GET', '/visitor/companies_list?company_role_id=2', { token: t.admin });
    expect(sellers.status).toBe(200);
    expect(names(sellers)).toEqual(expect.arrayContaining(['Corriere Centrale look', 'Altro Vettore look', 'Acme Trasporti S.r.l.']));
    expect(names(sellers)).not.toContain('Edilizia Esempio look');
    const carrier = await p().api('GET', '/visitor/companies_list', { token: t.carrier });
    expect(names(carrier).sort()).toEqual(['Corriere Centrale look', 'Edilizia Esempio look', 'Seconda Ditta look']);
    const endUser = await p().api('GET', '/visitor/companies_list', { token: t.endUser });
    expect(names(endUser)).toEqual(['Edilizia Esempio look']);
    expect((await p().api('GET', '/visitor/companies_list')).status).toBe(401);
  });

  it('enduser_list: a carrier’s end users; another carrier’s id is 404 for a carrier', async () => {
    const admin = await p().api('GET', `/visitor/enduser_list?company_id=${w.carrier}`, { token: t.admin });
    expect(admin.body.data).toMatchObject([
      { id: w.endUser, legal_name: 'Edilizia Esempio look', carrier_name: 'Edilizia Esempio look' },
      { id: w.endUser2, legal_name: 'Seconda Ditta look', carrier_name: 'Seconda Ditta look' },
    ]);
    expect(names(await p().api('GET', '/visitor/enduser_list', { token: t.carrier }))).toEqual(['Edilizia Esempio look', 'Seconda Ditta look']);
    expect((await p().api('GET', `/visitor/enduser_list?company_id=${w.other}`, { token: t.carrier })).status).toBe(404);
    expect(names(await p().api('GET', '/visitor/enduser_list', { token: t.endUser }))).toEqual(['Edilizia Esempio look']);
  });

  it('the profile carries the company’s country code for the calculator’s defaults', async () => {
    const r = await p().api('GET', '/visitor/getProfile', { token: await p().login(DEMO.enduser) });
    expect(r.body.user.company).toMatchObject({ city: 'Bologna', province: 'BO', postal_code: '40133', country_code: 'IT' });
  });
});
