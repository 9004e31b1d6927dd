import { expect, it } from 'vitest';
import { canAccess } from '../../model/permissions.js';
import { serverMessages } from '../../model/resource.js';
import { declaredSweepRows } from './security/sweepMatrix.js';
import { DEMO, describeEachDb } from './helpers.js';
import { vehicleTypes, vehicleTypesMigration } from '../fixtures/vehicleTypes.js';

/**
 * Issue 17: a resource is its declaration, one registry line and its migration. This suite builds the
 * portal with a throwaway declaration (tests/fixtures/vehicleTypes.ts) and its migration, and nothing
 * else, and drives the resource through the API: routes for the kinds it names, validation and unique
 * checks in the caller's language, its place in /api/docs and in the security sweep.
 */
describeEachDb(
  'a resource built from its declaration alone',
  (p) => {
    let admin = '';
    let carrier = '';
    let enduser = '';
    const truck = { code: 'tir40', name: 'Autoarticolato', max_weight: 40000 };

    it('signs in', async () => {
      admin = await p().login(DEMO.admin);
      carrier = await p().login(DEMO.carrier);
      enduser = await p().login(DEMO.enduser);
    });

    it('stores with defaults and normalisation, answers in the caller’s language', async () => {
      const r = await p().api('POST', '/admin/vehicle_types/store', {
        token: admin,
        body: { ...truck, name: '  Autoarticolato ', extra: 'dropped' },
        lang: 'it',
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: true,
        message: 'Tipo di veicolo creato',
        data: { code: 'TIR40', name: 'Autoarticolato', max_weight: 40000, active: '1' },
      });
      expect(r.body.data.extra).toBeUndefined();
      expect(r.body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('refuses bad input with the declared labels, and stores nothing', async () => {
      const missing = await p().api('POST', '/admin/vehicle_types/store', { token: admin, body: { code: 'VAN' }, lang: 'it' });
      expect(missing.status).toBe(422);
      expect(missing.body.errors.name[0]).toContain('nome');
      expect(missing.body.errors.max_weight[0]).toContain('peso massimo (kg)');
      const big = await p().api('POST', '/admin/vehicle_types/store', { token: admin, body: { code: 'VAN', name: 'Furgone', max_weight: 100001 }, lang: 'en' });
      expect(big.status).toBe(422);
      expect(big.body.errors.max_weight[0]).toMatch(/maximum weight \(kg\).*100000/);
      const dup = await p().api('POST', '/admin/vehicle_types/store', { token: admin, body: { ...truck, code: 'Tir40' }, lang: 'fr' });
      expect(dup.status).toBe(422);
      expect(Object.keys(dup.body.errors)).toEqual(['code']);
      const list = await p().api('GET', '/admin/vehicle_types', { token: admin });
      expect(list.body.total).toBe(1);
    });

    it('lists, searches, sorts, shows and updates for the admin', async () => {
      await p().api('POST', '/admin/vehicle_types/store', { token: admin, body: { code: 'VAN35', name: 'Furgone', max_weight: 3500, active: '0' } });
      const list = await p().api('GET', '/admin/vehicle_types', { token: admin, body: undefined });
      expect(list.body).toMatchObject({ current_page: 1, per_page: 15, last_page: 1, total: 2 });
      expect(list.body.data.map((r: any) => r.code)).toEqual(['TIR40', 'VAN35']);
      const sorted = await p().api('GET', '/admin/vehicle_types?sort=max_weight&order=asc', { token: admin });
      expect(sorted.body.data.map((r: any) => r.code)).toEqual(['VAN35', 'TIR40']);
      const found = await p().api('GET', '/admin/vehicle_types?q=furg', { token: admin });
      expect(found.body.data.map((r: any) => r.code)).toEqual(['VAN35']);
      const id = found.body.data[0].id;
      const upd = await p().api('POST', `/admin/vehicle_types/update/${id}`, {
        token: admin,
        body: { code: 'VAN35', name: 'Furgone', max_weight: 3499 },
        lang: 'en',
      });
      expect(upd.body).toMatchObject({ status: true, message: 'Vehicle type updated', data: { code: 'VAN35', name: 'Furgone', max_weight: 3499 } });
      expect((await p().api('GET', `/admin/vehicle_types/show/${id}`, { token: admin })).body.data.max_weight).toBe(3499);
      expect((await p().api('GET', '/admin/vehicle_types/show/999999', { token: admin })).status).toBe(404);
    });

    it('the carrier reads through its own path and writes nothing; the end user gets nothing', async () => {
      expect((await p().api('GET', '/company/vehicle_types', { token: carrier })).body.total).toBe(2);
      expect((await p().api('POST', '/company/vehicle_types/store', { token: carrier, body: truck })).status).toBe(404);
      expect((await p().api('POST', '/admin/vehicle_types/store', { token: carrier, body: { ...truck, code: 'X1' } })).status).toBe(403);
      expect((await p().api('GET', '/company/vehicle_types', { token: enduser })).status).toBe(403);
      expect((await p().api('GET', '/admin/vehicle_types')).status).toBe(401);
    });

    it('appears in /api/docs with a summary and its answer schema', async () => {
      const doc = (await p().app.inject({ method: 'GET', url: '/api/docs' })).json();
      const list = doc.paths['/api/v1/admin/vehicle_types']?.get;
      expect(list?.summary).toMatch(/vehicle types/i);
      expect(list?.responses?.['200']).toBeDefined();
      expect(doc.paths['/api/v1/admin/vehicle_types/store']?.post?.requestBody).toBeDefined();
      expect(doc.paths['/api/v1/company/vehicle_types/store']).toBeUndefined();
    });

    it('has its place in the permission table input, the sweep and the messages', () => {
      expect(Object.keys(declaredSweepRows([vehicleTypes])).sort()).toEqual([
        'GET /admin/vehicle_types',
        'GET /admin/vehicle_types/show/:id',
        'GET /company/vehicle_types',
        'GET /company/vehicle_types/show/:id',
        'POST /admin/vehicle_types/store',
        'POST /admin/vehicle_types/update/:id',
      ]);
      expect(declaredSweepRows([vehicleTypes])['GET /company/vehicle_types'].expect).toEqual([200]);
      expect(declaredSweepRows([vehicleTypes])['POST /admin/vehicle_types/store'].expect).toEqual([403]);
      expect(serverMessages(vehicleTypes).fr['field.vehicle-types.max_weight']).toBe('poids maximal (kg)');
      // The registry's resources are in the shared table; a fixture is not (it is not in model/registry.ts).
      expect(canAccess('carrier', 'diesel-prices', 'list')).toBe(true);
      expect(canAccess('carrier', 'diesel-prices', 'create')).toBe(false);
      expect(canAccess('admin', 'vehicle-types', 'list')).toBe(false);
    });
  },
  {},
  { extraResources: [vehicleTypes], migrate: vehicleTypesMigration },
);

describeEachDb('diesel reference prices (pricing.md §7)', (p) => {
  it('admins keep one price a month with 3 decimals; carriers read them', async () => {
    // the demo seeds the last four months (server/seed/tariffs.ts): this test starts from an empty table
    await p().db.db.deleteFrom('diesel_prices').execute();
    const admin = await p().login(DEMO.admin);
    const carrier = await p().login(DEMO.carrier);
    const ok = await p().api('POST', '/admin/diesel_prices/store', {
      token: admin,
      body: { month: '2026-11', price: '1,587', note: 'MASE, media mensile' },
      lang: 'it',
    });
    expect(ok.body).toMatchObject({ status: true, message: 'Prezzo del gasolio salvato', data: { month: '2026-11', price: '1.587' } });
    const num = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body: { month: '2026-10', price: 1.612 } });
    expect(num.body.data.price).toBe('1.612');
    for (const [body, field] of [
      [{ month: '2026-13', price: '1.5' }, 'month'],
      [{ month: '11/2026', price: '1.5' }, 'month'],
      [{ month: '2026-09', price: '0' }, 'price'],
      [{ month: '2026-09', price: '-1.2' }, 'price'],
      [{ month: '2026-09', price: '1.5874' }, 'price'],
      [{ month: '2026-11', price: '1.6' }, 'month'],
    ] as const) {
      const r = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body, lang: 'it' });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual([field]);
    }
    const zero = await p().api('POST', '/admin/diesel_prices/store', { token: admin, body: { month: '2026-09', price: '0' }, lang: 'it' });
    expect(zero.body.errors.price[0]).toBe('Il campo prezzo gasolio (€/l) deve essere maggiore di 0.');
    const list = await p().api('GET', '/company/diesel_prices', { token: carrier });
    expect(list.body.data.map((r: any) => r.month)).toEqual(['2026-11', '2026-10']);
    expect((await p().api('POST', '/admin/diesel_prices/store', { token: carrier, body: { month: '2026-08', price: '1.5' } })).status).toBe(403);
    expect((await p().api('GET', '/admin/diesel_prices', { token: admin })).body.total).toBe(2);
  });
});
