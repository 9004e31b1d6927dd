import SwaggerParser from '@apidevtools/swagger-parser';
import * as XLSX from '@e965/xlsx';
import { beforeAll, expect, it } from 'vitest';
import { HOSTILE_CASES } from '../fixtures/hostileSheets.js';
import { vehicleTypes, vehicleTypesMigration } from '../fixtures/vehicleTypes.js';
import { yards, yardsMigration } from '../fixtures/importFixture.js';
import { declaredImportSweepRows } from './security/sweepMatrix.js';
import { API_PASSWORD, DEMO, describeEachDb } from './helpers.js';
import { createCarrier, form, xlsx } from './tariffs.helpers.js';

/**
 * Issue 34: the import of a declared resource (server/lib/declaredImport.ts), driven through the API on both
 * databases with a throwaway company-owned declaration (tests/fixtures/importFixture.ts: yards, with a
 * reference to the vehicle types of tests/fixtures/vehicleTypes.ts): the template, a check of .xlsx and .csv
 * files, the refused cells in the caller's language, references by name and by id, duplicates in the file,
 * publish (adds and changes in one transaction, one audit entry), re-import, a refused publish, the tenancy,
 * the end user, hostile files. Every JSON answer is checked against its schema by the test portal.
 */

const IT_HEADERS = ['Nome piazzale', 'Tipo di veicolo', 'Superficie', 'Aperto dal', 'Tariffa giornaliera', 'Varchi', 'Attivo', 'Codice'];
/** Excel's serial day of a date. */
const serial = (iso: string) => (Date.parse(`${iso}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;

describeEachDb(
  'import of a declared resource',
  (p) => {
    let admin = '';
    let carrier = '';
    let enduser = '';
    let carrierCompany = 0;
    let enduserCompany = 0;
    let other: Awaited<ReturnType<typeof createCarrier>>;
    const vt: Record<string, number> = {};
    const db = () => p().db.db as any;

    const upload = (path: string, token: string, file: { name: string; data: Buffer }, fields: Record<string, string | number> = {}, lang = 'it') =>
      p().api('POST', `${path}/import`, { token, lang, payload: form(fields, { field: 'file', ...file }) });
    const imp = (token: string, file: { name: string; data: Buffer }, fields: Record<string, string | number> = {}, lang = 'it') =>
      upload('/company/yards', token, file, fields, lang);
    const rowsOf = (company: number) =>
      db().selectFrom('yards').selectAll().where('company_id', '=', company).orderBy('name').execute() as Promise<Array<Record<string, any>>>;
    const count = async () => Number((await db().selectFrom('yards').select(db().fn.countAll().as('n')).executeTakeFirst()).n);
    const companyOf = async (email: string) =>
      Number((await db().selectFrom('users').select('company_id').where('email', '=', email).executeTakeFirst()).company_id);

    beforeAll(async () => {
      admin = await p().login(DEMO.admin);
      carrier = await p().login(DEMO.carrier);
      enduser = await p().login(DEMO.enduser);
      carrierCompany = await companyOf(DEMO.carrier);
      enduserCompany = await companyOf(DEMO.enduser);
      other = await createCarrier(p(), 'Beta Piazzali');
      const now = new Date().toISOString();
      for (const [code, name] of [
        ['TIR40', 'Autoarticolato'],
        ['VAN35', 'Furgone'],
        ['BUS1', 'Doppio'],
        ['BUS2', 'Doppio'],
      ]) {
        const r = await db()
          .insertInto('vehicle_types')
          .values({ code, name, max_weight: 1000, active: '1', created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        vt[code] = Number(r.id);
      }
    });

    /** The good file: a reference by name and one by id, a date cell and a date as text, money as a number and with a decimal comma. */
    const good = () =>
      xlsx([
        IT_HEADERS,
        ['Nord', 'autoarticolato', 'Coperto', serial('2026-01-01'), 12.5, 3, 'sì', 'ab1'],
        ['Sud', vt.VAN35, 'open', '2026-02-15', '7,25', 2, 'no', null],
      ]);

    it('downloads the template: the field labels in the caller’s language, as .xlsx or .csv', async () => {
      const get = (url: string, lang: string, token = carrier) =>
        p().app.inject({
          method: 'GET',
          url: `/api/v1${url}`,
          headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${token}`, 'accept-language': lang },
        });
      const x = await get('/company/yards/import/template', 'it');
      expect(x.statusCode).toBe(200);
      expect(x.headers['content-disposition']).toBe(`attachment; filename="modello-piazzali.xlsx"; filename*=UTF-8''modello-piazzali.xlsx`);
      const wb = XLSX.read(x.rawPayload, { type: 'buffer' });
      expect(XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0]], { header: 1 })).toEqual([IT_HEADERS]);
      const en = await get('/company/yards/import/template?format=csv', 'en');
      expect(en.statusCode).toBe(200);
      expect(en.headers['content-type']).toContain('text/csv');
      expect(en.headers['content-disposition']).toContain('filename="yards-template.csv"');
      expect(en.body).toBe('\uFEFFYard name,Vehicle type,Surface,Opened on,Daily fee,Gates,Active,Code\r\n');
      const fr = await get('/enduser/yards/import/template?format=csv', 'fr', enduser);
      expect(fr.headers['content-disposition']).toContain('filename="modele-parcs.csv"');
      expect(fr.body.split('\r\n')[0]).toBe('\uFEFFNom du parc;Type de véhicule;Surface;Ouvert depuis;Tarif journalier;Portails;Actif;Code');
      // the admin's template too; a kind the declaration does not name has no route
      expect((await get('/admin/yards/import/template', 'it', admin)).statusCode).toBe(200);
      expect((await get('/company/yards/import/template', 'it', enduser)).statusCode).toBe(403);
    });

    it('checks a good .xlsx: nothing stored, the summary and the changes, references by name and by id', async () => {
      const r = await imp(carrier, { name: 'piazzali.xlsx', data: good() }, { dry_run: 1 });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ outcome: 'checked', status: true, data: { errors: [], summary: { added: 2, changed: 0, unchanged: 0 } } });
      expect(r.body.data.changes).toEqual([
        {
          row: 2,
          action: 'add',
          key: 'Nord',
          fields: {
            name: { before: null, after: 'Nord' },
            vehicle_type_id: { before: null, after: vt.TIR40 },
            surface: { before: null, after: 'covered' },
            opened_on: { before: null, after: '2026-01-01' },
            fee: { before: null, after: 12.5 },
            gates: { before: null, after: 3 },
            active: { before: null, after: '1' },
            code: { before: null, after: 'AB1' },
          },
        },
        {
          row: 3,
          action: 'add',
          key: 'Sud',
          fields: {
            name: { before: null, after: 'Sud' },
            vehicle_type_id: { before: null, after: vt.VAN35 },
            surface: { before: null, after: 'open' },
            opened_on: { before: null, after: '2026-02-15' },
            fee: { before: null, after: 7.25 },
            gates: { before: null, after: 2 },
            active: { before: null, after: '0' },
            code: { before: null, after: null },
          },
        },
      ]);
      expect(await count()).toBe(0);
    });

    it('checks a .csv with semicolons and a decimal comma, headers by field name or in another language', async () => {
      const csv = Buffer.from('\uFEFFname;Vehicle type;Tarif journalier;Aperto dal;ACTIVE\r\nEst;FURGONE;1.234,50;15/03/2026;oui\r\n');
      const r = await imp(carrier, { name: 'piazzali.csv', data: csv }, { dry_run: 1 });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.errors).toEqual([]);
      // the absent columns: the declaration's defaults (surface), else empty
      expect(r.body.data.changes[0].fields).toEqual({
        name: { before: null, after: 'Est' },
        vehicle_type_id: { before: null, after: vt.VAN35 },
        fee: { before: null, after: 1234.5 },
        opened_on: { before: null, after: '2026-03-15' },
        active: { before: null, after: '1' },
        surface: { before: null, after: 'open' },
      });
    });

    const bad = () =>
      xlsx([
        ['Titolo del foglio'],
        IT_HEADERS,
        ['Nord', 'Elicottero', 'Coperto', '2026-01-01', 10, 3, 1, null],
        ['Sud', 'Furgone', 'open', '2026-01-01', '12,345', 0, 1, null],
        [null, 'Furgone', 'open', null, null, null, 1, 'a-1'],
        ['Est', 'Furgone', 'Sterrato', '31/02/2026', null, null, 'forse', null],
        ['Ovest', 'Furgone', null, null, null, null, null, null],
        ['ovest', 'Furgone', null, null, null, null, null, null],
        ['Centro', 'Doppio', null, null, -1, null, null, null],
      ]);

    it('lists every refused cell by row and column header, in the caller’s language', async () => {
      const r = await imp(carrier, { name: 'errori.xlsx', data: bad() }, { dry_run: 1 }, 'it');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const errors: Array<{ row: number; column: string; message: string }> = r.body.data.errors;
      const at = (row: number, column: string) => errors.find((e) => e.row === row && e.column === column)?.message;
      expect(at(3, 'Tipo di veicolo')).toBe(
        'riga 3, colonna Tipo di veicolo: Nessun valore di Tipo di veicolo corrisponde a "Elicottero": scrivi il suo ID o il nome come appare nella lista.',
      );
      expect(at(4, 'Tariffa giornaliera')).toMatch(/"12.345" ha più di 2 decimali/);
      expect(at(5, 'Nome piazzale')).toBe('riga 5, colonna Nome piazzale: Il campo Nome piazzale è obbligatorio.');
      expect(at(6, 'Superficie')).toBe('riga 6, colonna Superficie: "Sterrato" non è una delle scelte: Scoperto, Coperto.');
      expect(at(6, 'Aperto dal')).toMatch(/"31\/02\/2026" non è una data/);
      expect(at(6, 'Attivo')).toMatch(/"forse" non è un sì o un no/);
      expect(at(8, 'Nome piazzale')).toBe('riga 8, colonna Nome piazzale: Il valore "ovest" di Nome piazzale è già presente alla riga 7.');
      expect(at(9, 'Tipo di veicolo')).toMatch(/Più valori di Tipo di veicolo si chiamano "Doppio"/);
      expect(at(9, 'Tariffa giornaliera')).toBe('riga 9, colonna Tariffa giornaliera: Il campo Tariffa giornaliera deve essere almeno 0.');
      // the store's rules after the cells: a row with a refused cell is not checked further
      expect(at(4, 'Varchi')).toBeUndefined();
      expect(r.body.data.summary).toEqual({ added: 1, changed: 0, unchanged: 0 });

      const en = await imp(carrier, { name: 'errori.xlsx', data: bad() }, { dry_run: 1 }, 'en');
      const enAt = (row: number, column: string) => en.body.data.errors.find((e: any) => e.row === row && e.column === column)?.message;
      expect(enAt(5, 'Nome piazzale')).toBe('row 5, column Nome piazzale: The Nome piazzale field is required.');
      expect(enAt(5, 'Codice')).toBe('row 5, column Codice: The Codice field format is invalid.');
      expect(enAt(9, 'Tipo di veicolo')).toBe('row 9, column Tipo di veicolo: More than one Tipo di veicolo is named "Doppio": write its ID instead.');

      // the cells after the store's rules: bounds of an integer
      const gates = await imp(
        carrier,
        { name: 'g.xlsx', data: xlsx([IT_HEADERS, ['Varco', 'Furgone', null, null, null, 0, null, null]]) },
        { dry_run: 1 },
        'en',
      );
      expect(gates.body.data.errors).toEqual([{ row: 2, column: 'Varchi', message: 'row 2, column Varchi: The Varchi field must be at least 1.' }]);
    });

    it('refuses a publish with errors: 422 with the same list, nothing stored', async () => {
      const r = await imp(carrier, { name: 'errori.xlsx', data: bad() }, {}, 'it');
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(/^Il file contiene \d+ errori in \d+ righe: non è stato importato nulla/);
      expect(r.body.data.dry_run).toBe(false);
      expect(r.body.data.errors.length).toBeGreaterThanOrEqual(9);
      expect(r.body.errors['Riga 3, Tipo di veicolo'][0]).toMatch(/Elicottero/);
      // the good row of the file (Ovest) was not stored either
      expect(await count()).toBe(0);
    });

    it('refuses a file without the required columns or without a header row', async () => {
      const r = await imp(
        carrier,
        {
          name: 'x.xlsx',
          data: xlsx([
            ['Superficie', 'Varchi'],
            ['open', 2],
          ]),
        },
        { dry_run: 1 },
        'it',
      );
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(/^Colonne mancanti nella prima riga: Nome piazzale, Tipo di veicolo\./);
      const none = await imp(
        carrier,
        {
          name: 'x.xlsx',
          data: xlsx([
            [1, 2],
            [3, 4],
          ]),
        },
        { dry_run: 1 },
        'en',
      );
      expect(none.status).toBe(422);
      expect(none.body.message).toMatch(/^The sheet has no header row/);
      expect(none.body.errors.file[0]).toBeTruthy();
      const twice = await imp(
        carrier,
        {
          name: 'x.xlsx',
          data: xlsx([
            ['Nome piazzale', 'name', 'Tipo di veicolo'],
            ['A', 'B', 'Furgone'],
          ]),
        },
        { dry_run: 1 },
        'en',
      );
      expect(twice.body.message).toBe('The column name appears twice in the first row.');
    });

    it('publishes in one transaction: rows added in the caller’s company, money in cents, one audit entry', async () => {
      const r = await imp(carrier, { name: 'piazzali.xlsx', data: good() }, {}, 'it');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({
        outcome: 'published',
        status: true,
        message: 'Righe aggiunte: 2; modificate: 0.',
        data: { added: 2, changed: 0, unchanged: 0 },
      });
      const rows = await rowsOf(carrierCompany);
      expect(rows.map((x) => [x.name, Number(x.vehicle_type_id), x.surface, x.opened_on, Number(x.fee), Number(x.gates), x.active, x.code])).toEqual([
        ['Nord', vt.TIR40, 'covered', '2026-01-01', 1250, 3, '1', 'AB1'],
        ['Sud', vt.VAN35, 'open', '2026-02-15', 725, 2, '0', null],
      ]);
      expect(rows[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const audit = await db().selectFrom('audit_log').selectAll().where('resource', '=', 'yards').execute();
      expect(audit.map((a: any) => a.action)).toEqual(['import']);
      expect(JSON.parse(audit[0].changes)).toMatchObject({ file: { after: 'piazzali.xlsx' }, added: { after: 2 }, changed: { after: 0 } });
    });

    it('imports the same file again as all unchanged; a changed file changes the matched rows and adds the others', async () => {
      const again = await imp(carrier, { name: 'piazzali.xlsx', data: good() }, { dry_run: 1 });
      expect(again.body.data).toEqual({ errors: [], summary: { added: 0, changed: 0, unchanged: 2 }, changes: [] });
      const published = await imp(carrier, { name: 'piazzali.xlsx', data: good() }, {}, 'en');
      expect(published.body.message).toBe('Rows added: 0; changed: 0.');
      expect(published.body.data).toEqual({ added: 0, changed: 0, unchanged: 2 });

      const changed = xlsx([
        ['Nome piazzale', 'Tipo di veicolo', 'Tariffa giornaliera'],
        ['NORD', vt.TIR40, '13'],
        ['Sud', 'Furgone', 7.25],
        ['Centro', 'Autoarticolato', null],
      ]);
      const check = await imp(carrier, { name: 'c.xlsx', data: changed }, { dry_run: 1 });
      expect(check.body.data.summary).toEqual({ added: 1, changed: 1, unchanged: 1 });
      // matched by the unique name, case aside; only the columns of the file are compared
      expect(check.body.data.changes[0]).toEqual({
        row: 2,
        action: 'change',
        key: 'NORD',
        fields: { name: { before: 'Nord', after: 'NORD' }, fee: { before: 12.5, after: 13 } },
      });
      expect(check.body.data.changes[1]).toMatchObject({ row: 4, action: 'add', key: 'Centro' });
      const r = await imp(carrier, { name: 'c.xlsx', data: changed }, {}, 'fr');
      expect(r.body.message).toBe('Lignes ajoutées : 1 ; modifiées : 1.');
      const rows = await rowsOf(carrierCompany);
      expect(rows.map((x) => [x.name, Number(x.fee ?? -1), x.surface, x.code])).toEqual([
        ['Centro', -1, 'open', null],
        ['NORD', 1300, 'covered', 'AB1'],
        ['Sud', 725, 'open', null],
      ]);
    });

    it('keeps tenants apart: another carrier’s file never touches these rows, a company_id it sends is dropped', async () => {
      const before = await rowsOf(carrierCompany);
      const file = xlsx([IT_HEADERS, ['Nord', 'Furgone', null, null, 99, null, null, null]]);
      const check = await imp(other.token, { name: 'b.xlsx', data: file }, { dry_run: 1, company_id: carrierCompany });
      expect(check.body.data.summary).toEqual({ added: 1, changed: 0, unchanged: 0 });
      const r = await imp(other.token, { name: 'b.xlsx', data: file }, { company_id: carrierCompany });
      expect(r.body.data).toEqual({ added: 1, changed: 0, unchanged: 0 });
      expect((await rowsOf(other.id)).map((x) => [x.name, Number(x.fee)])).toEqual([['Nord', 9900]]);
      expect(await rowsOf(carrierCompany)).toEqual(before);
    });

    it('an admin names the company (required, existing) and writes into it', async () => {
      const file = xlsx([IT_HEADERS, ['Nord', 'Furgone', null, null, 99, null, null, null]]);
      const missing = await upload('/admin/yards', admin, { name: 'a.xlsx', data: file }, { dry_run: 1 }, 'it');
      expect(missing.status).toBe(422);
      expect(Object.keys(missing.body.errors)).toEqual(['company_id']);
      const unknown = await upload('/admin/yards', admin, { name: 'a.xlsx', data: file }, { dry_run: 1, company_id: 999999 }, 'it');
      expect(unknown.status).toBe(422);
      expect(Object.keys(unknown.body.errors)).toEqual(['company_id']);
      const check = await upload('/admin/yards', admin, { name: 'a.xlsx', data: file }, { dry_run: 1, company_id: other.id });
      expect(check.body.data.summary).toEqual({ added: 0, changed: 0, unchanged: 1 });
      const r = await upload('/admin/yards', admin, { name: 'a.xlsx', data: file }, { company_id: carrierCompany });
      expect(r.body.data).toEqual({ added: 0, changed: 1, unchanged: 0 });
      expect((await rowsOf(carrierCompany)).find((x) => x.name === 'Nord')?.fee).toBe(9900);
    });

    it('an end user imports into its own company', async () => {
      const file = xlsx([
        ['Nome piazzale', 'Tipo di veicolo'],
        ['Magazzino cliente', 'Furgone'],
      ]);
      const r = await upload('/enduser/yards', enduser, { name: 'e.xlsx', data: file }, {}, 'it');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((await rowsOf(enduserCompany)).map((x) => x.name)).toEqual(['Magazzino cliente']);
      // a carrier's path is not the end user's
      expect((await upload('/company/yards', enduser, { name: 'e.xlsx', data: file })).status).toBe(403);
    });

    it('answers hostile or wrong files 4xx with a message in the caller’s language, storing nothing', async () => {
      const total = await count();
      for (const name of ['xlsx-zip-bomb-honest', 'pdf-named-xlsx']) {
        const c = HOSTILE_CASES.find((h) => h.name === name)!;
        for (const fields of [{ dry_run: 1 }, {}] as Array<Record<string, number>>) {
          const r = await imp(carrier, { name: c.fileName, data: c.make() }, fields, 'it');
          expect(r.status, name).toBe(c.status);
          expect(r.body.errors.file[0]).toBeTruthy();
          expect(r.body.message).not.toMatch(/import\.|^The /);
        }
      }
      const txt = await imp(carrier, { name: 'piazzali.txt', data: Buffer.from('Nome piazzale\nNord\n') }, { dry_run: 1 }, 'fr');
      expect(txt.status).toBe(422);
      expect(txt.body.message).toMatch(/\.xlsx, \.xls, \.ods/);
      const none = await p().api('POST', '/company/yards/import', { token: carrier, payload: form({ dry_run: 1 }) });
      expect(none.status).toBe(422);
      expect(Object.keys(none.body.errors)).toEqual(['file']);
      expect(await count()).toBe(total);
    });

    it('is in /api/docs (check or published by outcome) and in the security sweep', async () => {
      const doc = (await p().app.inject({ method: 'GET', url: '/api/docs' })).json();
      const post = doc.paths['/api/v1/company/yards/import']?.post;
      expect(post.responses['200'].content['application/json'].schema.discriminator.propertyName).toBe('outcome');
      expect(post.requestBody.content['multipart/form-data'].schema.required).toEqual(['file']);
      expect(doc.paths['/api/v1/admin/yards/import'].post.requestBody.content['multipart/form-data'].schema.required).toEqual(['company_id', 'file']);
      expect(doc.paths['/api/v1/enduser/yards/import/template']?.get?.summary).toMatch(/template/);
      expect(doc.components.schemas.DeclaredImportCheck.additionalProperties).toBe(false);
      // the document with these routes is valid OpenAPI
      await SwaggerParser.validate(structuredClone(doc));
      expect(Object.keys(declaredImportSweepRows([yards, vehicleTypes])).sort()).toEqual([
        'GET /admin/yards/import/template',
        'GET /company/yards/import/template',
        'GET /enduser/yards/import/template',
        'POST /admin/yards/import',
        'POST /company/yards/import',
        'POST /enduser/yards/import',
      ]);
    });
  },
  {},
  {
    extraResources: [vehicleTypes, yards],
    migrate: async (db) => {
      await vehicleTypesMigration(db);
      await yardsMigration(db);
    },
  },
);
