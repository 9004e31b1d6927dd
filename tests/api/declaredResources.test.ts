import { expect, it } from 'vitest';
import { canAccess } from '../../model/permissions.js';
import { serverMessages } from '../../model/resource.js';
import { declaredSweepRows } from './security/sweepMatrix.js';
import { DEMO, describeEachDb } from './helpers.js';
import { depots, fixturesMigration, vehicleTypes } from '../fixtures/vehicleTypes.js';
import { PASSWORD, createTenants } from './accountsFixtures.js';
import { readCsvStrict } from '../fixtures/csv.js';

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
        'GET /admin/vehicle_types/destroy/:id',
        'GET /admin/vehicle_types/show/:id',
        'GET /company/vehicle_types',
        'GET /company/vehicle_types/show/:id',
        'POST /admin/vehicle_types/bulk',
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
  { extraResources: [vehicleTypes, depots], migrate: fixturesMigration },
);

/**
 * Issue 34: a company's own resource from its declaration alone (tests/fixtures/vehicleTypes.ts `depots`:
 * tenancy company, a reference to the vehicle types, select/date/money filters, money, delete, bulk), driven
 * as carrier A (the demo carrier Acme), its end user (Rossi), carrier B (Beta) and the admin.
 */
describeEachDb(
  'a company’s own resource built from its declaration',
  (p) => {
    const t = { admin: '', acme: '', rossi: '', beta: '' };
    const co = { acme: 0, rossi: 0, beta: 0 };
    const vt = { tir: 0, van: 0 };
    const ids: Record<string, number> = {};
    const names = (r: { body: any }) => r.body.data.map((x: any) => x.name);
    const store = async (token: string, path: string, body: Record<string, unknown>, lang = 'it') => {
      const r = await p().api('POST', `${path}/store`, { token, body, lang });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data;
    };

    it('sets up two carriers, an end user and two vehicle types', async () => {
      const w = await createTenants(p());
      Object.assign(co, { acme: w.acme, rossi: w.rossi, beta: w.beta });
      t.admin = await p().login(DEMO.admin);
      t.acme = await p().login(DEMO.carrier);
      t.rossi = await p().login(DEMO.enduser);
      t.beta = await p().login(w.betaOwner.email, PASSWORD);
      vt.tir = (await store(t.admin, '/admin/vehicle_types', { code: 'TIR', name: 'Autoarticolato', max_weight: 40000 })).id;
      vt.van = (await store(t.admin, '/admin/vehicle_types', { code: 'VAN', name: 'Furgone', max_weight: 3500 })).id;
    });

    it('stores in the caller’s company (a company_id sent is dropped), with money in euros and the reference’s name', async () => {
      const a = await p().api('POST', '/company/depots/store', {
        token: t.acme,
        body: { name: 'Torino Nord', kind: 'ramp', vehicle_type_id: vt.tir, opened_on: '2026-01-10', fee: '12,50', company_id: co.beta },
        lang: 'it',
      });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ status: true, message: 'Deposito creato' });
      expect(a.body.data).toEqual({
        id: a.body.data.id,
        name: 'Torino Nord',
        kind: 'ramp',
        vehicle_type_id: vt.tir,
        vehicle_type_name: 'Autoarticolato',
        opened_on: '2026-01-10',
        fee: 12.5,
        active: '1',
        company_id: co.acme,
        company_name: 'Acme Trasporti S.r.l.',
        created_at: a.body.data.created_at,
      });
      ids.torino = a.body.data.id;
      // integer cents in the table
      expect(
        (
          await p()
            .db.db.selectFrom('depots' as any)
            .select('fee')
            .where('id', '=', ids.torino)
            .executeTakeFirst()
        )?.fee,
      ).toBe(1250);
      ids.milano = (await store(t.acme, '/company/depots', { name: 'Milano', kind: 'yard', vehicle_type_id: vt.van, opened_on: '2026-03-01', fee: 40 })).id;
      ids.genova = (await store(t.acme, '/company/depots', { name: 'Genova', kind: 'warehouse', opened_on: '2025-12-31', fee: '7.05' })).id;
      const free = await store(t.acme, '/company/depots', { name: 'Senza tipo' });
      expect(free).toMatchObject({ kind: 'ramp', vehicle_type_id: null, vehicle_type_name: null, fee: null, opened_on: null });
      ids.free = free.id;
      ids.rossi = (await store(t.rossi, '/enduser/depots', { name: 'Magazzino Rossi', vehicle_type_id: vt.van, fee: 1 })).id;
      // the same name in another company is not taken: unique per company
      ids.beta = (await store(t.beta, '/company/depots', { name: 'Torino Nord', kind: 'yard', fee: 99.99 })).id;
      expect((await p().api('GET', `/company/depots/show/${ids.beta}`, { token: t.beta })).body.data).toMatchObject({ company_id: co.beta, fee: 99.99 });
    });

    it('refuses what does not hold, naming the field in the caller’s language, and stores nothing', async () => {
      const before = (await p().api('GET', '/admin/depots', { token: t.admin })).body.total;
      const unknown = await p().api('POST', '/company/depots/store', { token: t.acme, body: { name: 'X', vehicle_type_id: 999999 }, lang: 'it' });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual({ vehicle_type_id: ['Il valore scelto per il campo tipo di veicolo non esiste.'] });
      const fr = await p().api('POST', '/company/depots/store', { token: t.acme, body: { name: 'X', vehicle_type_id: 999999 }, lang: 'fr' });
      expect(fr.body.errors.vehicle_type_id[0]).toBe('La valeur choisie pour le champ type de véhicule n’existe pas.');
      const dup = await p().api('POST', '/company/depots/store', { token: t.acme, body: { name: 'torino nord' }, lang: 'en' });
      expect(dup.status).toBe(422);
      expect(dup.body.errors.name[0]).toBe('The name has already been taken (Torino Nord).');
      const cents = await p().api('POST', '/company/depots/store', { token: t.acme, body: { name: 'X', fee: '1,234' }, lang: 'en' });
      expect(cents.status).toBe(422);
      expect(Object.keys(cents.body.errors)).toEqual(['fee']);
      const negative = await p().api('POST', '/company/depots/store', { token: t.acme, body: { name: 'X', fee: '-1' }, lang: 'en' });
      expect(Object.keys(negative.body.errors)).toEqual(['fee']);
      const words = await p().api('POST', '/company/depots/store', { token: t.acme, body: { name: 'X', fee: 'dodici' }, lang: 'en' });
      expect(Object.keys(words.body.errors)).toEqual(['fee']);
      // the admin must name an existing company
      const noCompany = await p().api('POST', '/admin/depots/store', { token: t.admin, body: { name: 'X' }, lang: 'it' });
      expect(noCompany.status).toBe(422);
      expect(Object.keys(noCompany.body.errors)).toEqual(['company_id']);
      const badCompany = await p().api('POST', '/admin/depots/store', { token: t.admin, body: { name: 'X', company_id: 999999 }, lang: 'it' });
      expect(badCompany.body.errors).toEqual({ company_id: ['Il valore scelto per il campo azienda non esiste.'] });
      // the unique index per company holds under a race past the check: answered as the check would
      const raced = await Promise.all([1, 2].map(() => p().api('POST', '/company/depots/store', { token: t.beta, body: { name: 'Gara' }, lang: 'en' })));
      expect(raced.map((r) => r.status).sort()).toEqual([200, 422]);
      const lost = raced.find((r) => r.status === 422)!;
      expect(lost.body.errors.name[0]).toBe('The name has already been taken (Gara).');
      ids.gara = raced.find((r) => r.status === 200)!.body.data.id;
      expect((await p().api('GET', '/admin/depots', { token: t.admin })).body.total).toBe(before + 1);
    });

    it('scopes every route to the caller’s company: another company’s id is 404, as an absent one', async () => {
      expect(names(await p().api('GET', '/company/depots', { token: t.acme }))).toEqual(['Genova', 'Milano', 'Senza tipo', 'Torino Nord']);
      expect(names(await p().api('GET', '/company/depots?company_id=' + co.beta, { token: t.acme }))).toEqual([
        'Genova',
        'Milano',
        'Senza tipo',
        'Torino Nord',
      ]);
      expect(names(await p().api('GET', '/company/depots', { token: t.beta }))).toEqual(['Gara', 'Torino Nord']);
      expect(names(await p().api('GET', '/enduser/depots', { token: t.rossi }))).toEqual(['Magazzino Rossi']);
      expect((await p().api('GET', '/company/depots', { token: t.rossi })).status).toBe(403);
      for (const [token, path, id] of [
        [t.beta, '/company/depots', ids.torino],
        [t.acme, '/company/depots', ids.beta],
        [t.acme, '/company/depots', ids.rossi],
        [t.rossi, '/enduser/depots', ids.torino],
      ] as const) {
        expect((await p().api('GET', `${path}/show/${id}`, { token })).status).toBe(404);
        expect((await p().api('POST', `${path}/update/${id}`, { token, body: { name: 'Rubato', kind: 'ramp' } })).status).toBe(404);
        expect((await p().api('GET', `${path}/destroy/${id}`, { token })).status).toBe(404);
      }
      expect(names(await p().api('GET', `/company/depots?ids=${ids.beta},${ids.torino}`, { token: t.acme }))).toEqual(['Torino Nord']);
      // the admin reads every company's, and filters by company
      const all = await p().api('GET', '/admin/depots?per_page=100', { token: t.admin });
      expect(all.body.total).toBe(7);
      const beta = await p().api('GET', `/admin/depots?company_id=${co.beta}`, { token: t.admin });
      expect(beta.body.data.map((r: any) => [r.name, r.company_name])).toEqual([
        ['Gara', 'Beta Spedizioni S.p.A.'],
        ['Torino Nord', 'Beta Spedizioni S.p.A.'],
      ]);
      expect((await p().api('GET', `/admin/depots/show/${ids.rossi}`, { token: t.admin })).body.data.company_name).toBe('Rossi Logistica S.r.l.');
      // an admin store names the company; an admin update cannot move the row
      const made = await store(t.admin, '/admin/depots', { name: 'Da admin', company_id: co.beta });
      expect(made.company_id).toBe(co.beta);
      const moved = await p().api('POST', `/admin/depots/update/${made.id}`, {
        token: t.admin,
        body: { name: 'Da admin 2', kind: 'ramp', company_id: co.acme },
      });
      expect(moved.body.data).toMatchObject({ name: 'Da admin 2', company_id: co.beta });
      expect((await p().api('GET', `/admin/depots/destroy/${made.id}`, { token: t.admin })).status).toBe(200);
    });

    it('checks references and unique values against the row’s own company on update', async () => {
      const r = await p().api('POST', `/company/depots/update/${ids.milano}`, {
        token: t.acme,
        body: { name: 'Milano', kind: 'yard', vehicle_type_id: vt.tir, fee: '41,5' },
        lang: 'en',
      });
      expect(r.body).toMatchObject({ message: 'Depot updated', data: { vehicle_type_id: vt.tir, vehicle_type_name: 'Autoarticolato', fee: 41.5 } });
      const taken = await p().api('POST', `/company/depots/update/${ids.milano}`, { token: t.acme, body: { name: 'Genova', kind: 'yard' } });
      expect(Object.keys(taken.body.errors)).toEqual(['name']);
      // Beta's "Gara" is no clash for Acme's row
      expect((await p().api('POST', `/company/depots/update/${ids.free}`, { token: t.acme, body: { name: 'Gara', kind: 'ramp' } })).status).toBe(200);
      const bad = await p().api('POST', `/company/depots/update/${ids.milano}`, {
        token: t.acme,
        body: { name: 'Milano', kind: 'yard', vehicle_type_id: 999999 },
      });
      expect(Object.keys(bad.body.errors)).toEqual(['vehicle_type_id']);
      const back = await p().api('POST', `/company/depots/update/${ids.milano}`, {
        token: t.acme,
        body: { name: 'Milano', kind: 'yard', vehicle_type_id: vt.van, fee: 40 },
      });
      expect(back.body.data).toMatchObject({ vehicle_type_name: 'Furgone', fee: 40 });
    });

    it('filters by select, reference, flag, date and money ranges (declared in /api/docs), and refuses a malformed value', async () => {
      const q = async (query: string) => names(await p().api('GET', `/company/depots?${query}`, { token: t.acme }));
      expect(await q('kind=yard')).toEqual(['Milano']);
      expect(await q(`vehicle_type_id=${vt.tir}`)).toEqual(['Torino Nord']);
      expect(await q('opened_on_from=2026-01-01&opened_on_to=2026-03-01')).toEqual(['Milano', 'Torino Nord']);
      expect(await q('opened_on_to=2025-12-31')).toEqual(['Genova']);
      expect(await q('fee_from=7,05&fee_to=12.5')).toEqual(['Genova', 'Torino Nord']);
      expect(await q('fee_from=12,51')).toEqual(['Milano']);
      expect(await q('active=0')).toEqual([]);
      expect(await q(`kind=ramp&vehicle_type_id=${vt.tir}&fee_to=20`)).toEqual(['Torino Nord']);
      for (const bad of ['kind=boat', 'opened_on_from=2026-13-01', 'fee_from=dodici', 'vehicle_type_id=abc', 'ids=1,x', 'fee_to=1,234']) {
        const r = await p().api('GET', `/company/depots?${bad}`, { token: t.acme });
        expect(r.status, bad).toBe(422);
      }
      const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1).join(',');
      expect((await p().api('GET', `/company/depots?ids=${tooMany}`, { token: t.acme })).status).toBe(422);
      const doc = (await p().app.inject({ method: 'GET', url: '/api/docs' })).json();
      const params = (doc.paths['/api/v1/company/depots'].get.parameters as Array<{ name: string }>).map((x) => x.name);
      expect(params).toEqual(expect.arrayContaining(['kind', 'vehicle_type_id', 'opened_on_from', 'opened_on_to', 'fee_from', 'fee_to', 'active', 'ids']));
      expect(params).not.toContain('company_id');
      const adminParams = (doc.paths['/api/v1/admin/depots'].get.parameters as Array<{ name: string }>).map((x) => x.name);
      expect(adminParams).toContain('company_id');
      const exportParams = (doc.paths['/api/v1/company/depots/export'].get.parameters as Array<{ name: string }>).map((x) => x.name);
      expect(exportParams).toEqual(expect.arrayContaining(['kind', 'fee_from', 'ids', 'format']));
      for (const route of ['/api/v1/company/depots/destroy/{id}', '/api/v1/company/depots/bulk']) expect(doc.paths[route], route).toBeDefined();
    });

    it('exports with the references’ names and money in euros, under the same filters and ids', async () => {
      const csv = async (query: string, token = t.acme, lang = 'it', path = '/company/depots') => {
        const res = await p().app.inject({
          method: 'GET',
          url: `/api/v1${path}/export?format=csv&${query}`,
          headers: { 'x-api-password': 'test-api-password', authorization: `Bearer ${token}`, 'accept-language': lang },
        });
        expect(res.statusCode, res.body).toBe(200);
        return readCsvStrict(res.body, lang === 'en' ? ',' : ';');
      };
      const rows = await csv('');
      expect(rows[0]).toEqual(['Nome', 'Tipo', 'Tipo di veicolo', 'Aperto il', 'Tariffa (€)', 'Attivo']);
      expect(rows.slice(1).map((r) => [r[0], r[2], r[4]])).toEqual([
        ['Gara', '', ''],
        ['Genova', '', '7,05'],
        ['Milano', 'Furgone', '40,00'],
        ['Torino Nord', 'Autoarticolato', '12,50'],
      ]);
      expect((await csv(`ids=${ids.torino},${ids.beta}`)).slice(1).map((r) => r[0])).toEqual(['Torino Nord']);
      expect((await csv('kind=yard', t.acme, 'en')).slice(1)).toEqual([['Milano', 'yard', 'Furgone', expect.any(String), '40.00', 'Active']]);
      // the admin's export spans companies: the company is its first column
      const admin = await csv(`company_id=${co.beta}`, t.admin, 'en', '/admin/depots');
      expect(admin[0].slice(0, 2)).toEqual(['Company', 'Name']);
      expect(admin.slice(1).map((r) => r.slice(0, 2))).toEqual([
        ['Beta Spedizioni S.p.A.', 'Gara'],
        ['Beta Spedizioni S.p.A.', 'Torino Nord'],
      ]);
    });

    it('deletes the caller’s row, and refuses (409) a row others still refer to, naming them', async () => {
      const del = await p().api('GET', `/company/depots/destroy/${ids.genova}`, { token: t.acme, lang: 'en' });
      expect(del.body).toEqual({ status: true, message: 'Depot deleted', data: { id: ids.genova } });
      expect((await p().api('GET', `/company/depots/show/${ids.genova}`, { token: t.acme })).status).toBe(404);
      const audit = await p()
        .db.db.selectFrom('audit_log')
        .selectAll()
        .where('resource', '=', 'depots')
        .where('resource_id', '=', ids.genova)
        .where('action', '=', 'delete')
        .executeTakeFirst();
      expect(audit).toBeDefined();
      // the van is named by Milano (Acme) and Magazzino Rossi (Rossi): 2 depots
      const used = await p().api('GET', `/admin/vehicle_types/destroy/${vt.van}`, { token: t.admin, lang: 'it' });
      expect(used.status).toBe(409);
      expect(used.body.message).toBe('Questo record non può essere eliminato: è ancora usato da depositi (2).');
      expect((await p().api('GET', `/admin/vehicle_types/show/${vt.van}`, { token: t.admin })).status).toBe(200);
      // unused: deleted, with the generic message (vehicle types declare no `deleted` label)
      const spare = await store(t.admin, '/admin/vehicle_types', { code: 'BUS', name: 'Autobus', max_weight: 18000 });
      expect((await p().api('GET', `/admin/vehicle_types/destroy/${spare.id}`, { token: t.admin, lang: 'en' })).body).toEqual({
        status: true,
        message: 'Deleted.',
        data: { id: spare.id },
      });
      expect((await p().api('GET', `/company/vehicle_types/destroy/${vt.van}`, { token: t.acme })).status).toBe(404);
    });

    it('deletes in bulk only the caller’s rows, answering per id; others’ ids are not found and stay', async () => {
      const before = (await p().api('GET', '/admin/depots?per_page=100', { token: t.admin })).body.data;
      const r = await p().api('POST', '/company/depots/bulk', {
        token: t.beta,
        body: { action: 'delete', ids: [ids.torino, ids.beta, ids.rossi, 999999, ids.beta] },
        lang: 'en',
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        status: true,
        message: '1 of 4 deleted.',
        data: {
          deleted: 1,
          results: [
            { id: ids.torino, result: 'not_found', message: 'Not found' },
            { id: ids.beta, result: 'deleted' },
            { id: ids.rossi, result: 'not_found', message: 'Not found' },
            { id: 999999, result: 'not_found', message: 'Not found' },
          ],
        },
      });
      const after = (await p().api('GET', '/admin/depots?per_page=100', { token: t.admin })).body.data;
      expect(after).toEqual(before.filter((x: any) => x.id !== ids.beta));
      // a conflict is answered per id, the others still go
      const types = await p().api('POST', '/admin/vehicle_types/bulk', { token: t.admin, body: { action: 'delete', ids: [vt.van, vt.tir] }, lang: 'it' });
      expect(types.status, JSON.stringify(types.body)).toBe(200);
      expect(types.body.data.deleted).toBe(0);
      expect(types.body.data.results).toEqual([
        { id: vt.van, result: 'conflict', message: 'Questo record non può essere eliminato: è ancora usato da depositi (2).' },
        { id: vt.tir, result: 'conflict', message: 'Questo record non può essere eliminato: è ancora usato da depositi (1).' },
      ]);
      expect((await p().api('POST', '/company/depots/bulk', { token: t.acme, body: { action: 'archive', ids: [ids.torino] } })).status).toBe(422);
      expect((await p().api('POST', '/company/depots/bulk', { token: t.acme, body: { action: 'delete', ids: [] } })).status).toBe(422);
      const mine = await p().api('POST', '/enduser/depots/bulk', { token: t.rossi, body: { action: 'delete', ids: [ids.rossi] } });
      expect(mine.body.data).toEqual({ deleted: 1, results: [{ id: ids.rossi, result: 'deleted' }] });
      const audited = await p().db.db.selectFrom('audit_log').select('resource_id').where('resource', '=', 'depots').where('action', '=', 'delete').execute();
      expect(audited.map((a) => Number(a.resource_id)).sort((x, y) => x - y)).toEqual(
        expect.arrayContaining([ids.genova, ids.beta, ids.rossi].sort((x, y) => x - y)),
      );
    });

    it('classifies its routes in the sweep from the declaration', () => {
      const rows = declaredSweepRows([depots]);
      expect(
        Object.keys(rows)
          .filter((k) => k.includes('/company/'))
          .sort(),
      ).toEqual([
        'GET /company/depots',
        'GET /company/depots/destroy/:id',
        'GET /company/depots/show/:id',
        'POST /company/depots/bulk',
        'POST /company/depots/store',
        'POST /company/depots/update/:id',
      ]);
      const a = { carrier: 11, customer: 12, declared: { depots: { carrier: 101, enduser: 102 } } } as any;
      expect(rows['GET /company/depots/show/:id']).toMatchObject({ expect: [404] });
      expect(rows['GET /company/depots/show/:id'].calls(a, {} as any)[0].path).toBe('/company/depots/show/101');
      expect(rows['GET /enduser/depots/destroy/:id'].calls(a, {} as any)[0].path).toBe('/enduser/depots/destroy/102');
      expect(rows['POST /company/depots/bulk'].calls(a, {} as any)[0].body).toEqual({ action: 'delete', ids: [101] });
      expect(rows['POST /company/depots/bulk'].expect).toEqual([200]);
      expect(rows['POST /admin/depots/bulk'].expect).toEqual([403]);
      expect(rows['GET /company/depots'].calls(a, {} as any).map((c) => c.query)).toEqual([{ company_id: 11 }, { ids: '101' }]);
    });
  },
  {},
  { extraResources: [vehicleTypes, depots], migrate: fixturesMigration },
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
