import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO, describeEachDb } from './helpers.js';

/** One row per resource: its path, a valid new record, a field to change, and the unique field (if any). */
const RESOURCES = [
  {
    path: '/admin/currencies',
    table: 'currencies',
    create: { name: 'Test Coin', code_alpha: 'tcn', symbol: 'T$' },
    stored: { code_alpha: 'TCN', active: '0' },
    change: { name: 'Test Coin II' },
    unique: { code_alpha: 'EUR' },
    sort: 'code_alpha',
  },
  {
    path: '/admin/countries',
    table: 'countries',
    create: { name: 'Freedonia', code_alpha: 'fd', it: 'Freedonia', iso_alpha_2: 'fd', iso_alpha_3: 'FDN', un_code: '999' },
    stored: { code_alpha: 'FD', iso_alpha_2: 'FD', active: '0' },
    change: { name: 'Freedonia (Rep.)' },
    unique: { code_alpha: 'it' },
    sort: 'code_alpha',
  },
  {
    path: '/admin/document_types',
    table: 'document_types',
    create: { name: 'Bolla doganale', description: 'Documento di accompagnamento' },
    stored: { active: '0' },
    change: { description: 'Aggiornata' },
    unique: { name: 'cmr' },
    sort: 'name',
  },
  {
    path: '/admin/shipment_types',
    table: 'shipment_types',
    create: { name: 'Container 20’' },
    stored: {},
    change: { name: 'Container 40’' },
    unique: { name: 'PALLET' },
    sort: 'name',
  },
  {
    path: '/admin/transport_class',
    table: 'transport_classes',
    create: { name: 'PLATINUM' },
    stored: {},
    change: { name: 'PLATINUM+' },
    unique: { name: 'gold' },
    sort: 'name',
  },
] as const;

describeEachDb('admin reference data', (p) => {
  let admin: string;
  let carrier: string;
  let enduser: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
    enduser = await p().login(DEMO.enduser);
  });

  for (const r of RESOURCES) {
    describe(r.path, () => {
      it('lists a page with page, per_page, sort and order, in the flat paged shape', async () => {
        const total = Number(
          (
            (await p()
              .db.db.selectFrom(r.table as any)
              .select((eb: any) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()) as any
          ).n,
        );
        const asc = await p().api('GET', `${r.path}?page=1&per_page=2&sort=${r.sort}&order=asc`, { token: admin });
        expect(asc.status).toBe(200);
        expect(asc.body).toMatchObject({ current_page: 1, per_page: 2, total, last_page: Math.ceil(total / 2) });
        expect(asc.body.data).toHaveLength(2);
        const desc = await p().api('GET', `${r.path}?page=1&per_page=100&sort=${r.sort}&order=desc`, { token: admin });
        const values = desc.body.data.map((row: any) => String(row[r.sort]).toLowerCase());
        expect(values).toEqual([...values].sort().reverse());
        const last = await p().api('GET', `${r.path}?page=${asc.body.last_page}&per_page=2&sort=${r.sort}&order=asc`, { token: admin });
        expect(last.body.data.length).toBe(total % 2 === 0 ? 2 : 1);
        const second = await p().api('GET', `${r.path}?page=2&per_page=2&sort=${r.sort}&order=asc`, { token: admin });
        expect(second.body.data[0].id).not.toBe(asc.body.data[0].id);
        expect((await p().api('GET', `${r.path}?sort=password`, { token: admin })).status).toBe(422);
      });

      let id: number;
      it('stores a record with the documented defaults, trimmed and upper-cased where declared', async () => {
        const res = await p().api('POST', `${r.path}/store`, { token: admin, body: { ...r.create, id: 999999, created_at: '1999-01-01' }, lang: 'en' });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe(true);
        expect(res.body.message).toMatch(/created successfully/);
        expect(res.body.data).toMatchObject(r.stored);
        expect(res.body.data.id).not.toBe(999999);
        expect(res.body.data.created_at).not.toBe('1999-01-01');
        id = res.body.data.id;
        const shown = await p().api('GET', `${r.path}/show/${id}`, { token: admin });
        expect(shown.body.data).toMatchObject({ id, ...r.stored });
      });

      it('updates a record, and answers 404 for an unknown id', async () => {
        const res = await p().api('POST', `${r.path}/update/${id}`, { token: admin, body: { ...r.create, ...r.change }, lang: 'it' });
        expect(res.status).toBe(200);
        expect(res.body.message).toMatch(/aggiornat[ao] con successo/);
        expect(res.body.data).toMatchObject({ id, ...r.change });
        expect((await p().api('POST', `${r.path}/update/987654`, { token: admin, body: { ...r.create } })).status).toBe(404);
        expect((await p().api('GET', `${r.path}/show/987654`, { token: admin })).status).toBe(404);
      });

      it('answers 422 with field messages in the caller’s language and stores nothing', async () => {
        const before = await p().api('GET', `${r.path}?per_page=1`, { token: admin });
        const blank = await p().api('POST', `${r.path}/store`, { token: admin, body: { ...r.create, name: '   ' }, lang: 'it' });
        expect(blank.status).toBe(422);
        expect(blank.body.message).toBe('I dati inviati non sono validi.');
        expect(blank.body.errors.name).toEqual(['Il campo nome è obbligatorio.']);
        const dup = await p().api('POST', `${r.path}/store`, { token: admin, body: { ...r.create, name: 'Another name', ...r.unique }, lang: 'fr' });
        expect(dup.status).toBe(422);
        expect(Object.values(dup.body.errors).flat()[0]).toMatch(/déjà utilisée/);
        const long = await p().api('POST', `${r.path}/store`, { token: admin, body: { ...r.create, name: 'x'.repeat(101) }, lang: 'en' });
        expect(long.status).toBe(422);
        expect(long.body.errors.name[0]).toBe('The name field may not be greater than 100 characters.');
        const after = await p().api('GET', `${r.path}?per_page=1`, { token: admin });
        expect(after.body.total).toBe(before.body.total);
        // An update to another row's unique value is refused too, and changes nothing.
        const dupUpdate = await p().api('POST', `${r.path}/update/${id}`, { token: admin, body: { ...r.create, ...r.unique } });
        expect(dupUpdate.status).toBe(422);
        expect((await p().api('GET', `${r.path}/show/${id}`, { token: admin })).body.data).toMatchObject(r.change);
      });

      it('is for admins only: 403 for carriers and end users, 401 for visitors', async () => {
        for (const token of [carrier, enduser]) {
          expect((await p().api('GET', r.path, { token })).status).toBe(403);
          expect((await p().api('GET', `${r.path}/show/${id}`, { token })).status).toBe(403);
          expect((await p().api('POST', `${r.path}/store`, { token, body: r.create })).status).toBe(403);
          expect((await p().api('POST', `${r.path}/update/${id}`, { token, body: r.create })).status).toBe(403);
        }
        expect((await p().api('GET', r.path)).status).toBe(401);
        expect((await p().api('POST', `${r.path}/store`, { body: r.create })).status).toBe(401);
      });
    });
  }

  it('answers the hidden created column on document types, shipment types and transport classes', async () => {
    for (const path of ['/admin/document_types', '/admin/shipment_types', '/admin/transport_class']) {
      const row = (await p().api('GET', `${path}?per_page=1`, { token: admin })).body.data[0];
      expect(row.created).toBe(row.created_at);
      expect(row.created).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
  });

  it('validates the country codes and accepts the company-area fields', async () => {
    const bad = await p().api('POST', '/admin/countries/store', {
      token: admin,
      body: { name: 'X', code_alpha: 'X1', iso_alpha_3: 'TOOLONG', un_code: 'abc' },
      lang: 'en',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['code_alpha', 'iso_alpha_3', 'un_code']);
    const it = (await p().api('GET', '/admin/countries?q=ital&per_page=5', { token: admin })).body.data.find((c: any) => c.code_alpha === 'IT');
    expect(it).toMatchObject({ de: 'Italien', en: 'Italy', es: 'Italia', fr: 'Italie', it: 'Italia', iso_alpha_2: 'IT', iso_alpha_3: 'ITA', un_code: '380' });
  });

  it('seeds currencies with symbols, the euro active', async () => {
    const eur = (await p().api('GET', '/admin/currencies?q=eur&per_page=10', { token: admin })).body.data.find((c: any) => c.code_alpha === 'EUR');
    expect(eur).toMatchObject({ name: 'Euro', symbol: '€', active: '1' });
    const usd = (await p().api('GET', '/admin/currencies?q=usd', { token: admin })).body.data.find((c: any) => c.code_alpha === 'USD');
    expect(usd.symbol).toBe('$');
  });
});
