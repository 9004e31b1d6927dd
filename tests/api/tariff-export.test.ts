import { beforeAll, expect, it } from 'vitest';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS, TARIFF_TABLES, type Example, type RowsSpec, type TariffTableKey } from '../../model/tariffs.js';
import { DEMO, describeEachDb } from './helpers.js';
import { TABLE_NAMES } from '../../model/resources/tariffs.js';
import { slug } from '../../server/lib/downloadNames.js';
import { createCarrier, download, form, readRows, xlsx } from './tariffs.helpers.js';

/** Rows beyond the templates' examples, with what a round trip can lose: leading zeros, cents, four decimals, empty cells, accents. */
const EXTRA: Record<TariffTableKey, Example[]> = {
  express_hub_costs: [{ code: 'HUB0X', silver: 0.01, gold: null }],
  express_island_zones: [
    { island: 'Capri', special_zone: '', quintal_cost: 0.05, multiplier: 0.1234, p150: 1234.56, p300: null, p550: 0, ps550: 99.99, p1000: 100.1, type_id: 2 },
  ],
  express_hub_codes: [{ code: '00184', hub: 'HUBRM' }],
  express_special_zones: [{ province: 'RM', city: 'Roma', postal_code: '00118' }],
  standard_special_zone: [{ province: 'RM', code: '0RM', city: 'Roma', postal_code: '00118' }],
  standard_no_passage: [
    {
      postal_code: '00118',
      city: 'Roma',
      cost: 12.35,
      province: 'RM',
      flow: 'IN',
      special_zone: '',
      company_iso_2: '',
      code: '',
      rate_code: '',
      cost2: null,
      col_11: 'àèì «ü» 10,5',
    },
  ],
  postal_surcharges: [{ country: 'FR', postal_code: '75*', kind: 'other', flow: 'IN', fixed: 0.01, percent: 0.1234 }],
};
const STD_EXTRA: Example = {
  rate_code: '',
  country: 'IT',
  zone_code: '00',
  weight_from: 0.125,
  weight_to: 1000.5,
  price: 0.07,
  unit: 'Q',
  minimum: null,
  leadtime: null,
};

/** A file of a spec's rows, in the template's column order. */
const fileOf = (spec: RowsSpec, rows: readonly Example[]) =>
  xlsx([spec.columns.map((c) => c.name), ...rows.map((r) => spec.columns.map((c) => r[c.name] ?? null))]);

/** What a stored value must read as in the exported file: euros for money, numbers for decimals, text as stored (empty: null). */
function cellOf(spec: RowsSpec, name: string, v: unknown) {
  const col = spec.columns.find((c) => c.name === name)!;
  if (v === null || v === undefined || v === '') return null;
  if (col.kind === 'money') return Number(v) / 100;
  // The class as the screens show it (issue 35): SILVER, GOLD.
  if (col.words) return Object.keys(col.words).find((w) => col.words![w] === Number(v));
  if (col.kind === 'decimal' || col.kind === 'int') return Number(v);
  return String(v);
}
const blankToNull = (row: unknown[]) => row.map((v) => (v === '' ? null : v));
const withoutIds = (rows: Array<Record<string, unknown>>) => rows.map(({ id: _id, rate_sheet_id: _s, ...r }) => r);

describeEachDb('tariff export', (p) => {
  let admin: string;
  let enduser: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    enduser = await p().login(DEMO.enduser);
  });
  const db = () => p().db.db as any;
  const stored = (table: string, where: string, id: number) => db().selectFrom(table).selectAll().where(where, '=', id).orderBy('id').execute();
  /** The exported file's rows compared with the stored ones, cell by cell. */
  function expectFileOf(spec: RowsSpec, file: Buffer, rows: Array<Record<string, unknown>>) {
    const got = readRows(file);
    expect(got[0]).toEqual(spec.columns.map((c) => c.name));
    expect(got.slice(1).map(blankToNull)).toEqual(rows.map((r) => spec.columns.map((c) => cellOf(spec, c.name, r[c.name]))));
  }

  it('exports each table as stored, in the template columns; the export checks as all unchanged and publishes the same rows', async () => {
    const c = await createCarrier(p(), 'Export Trasporti');
    for (const spec of TARIFF_TABLES) {
      // Empty: the header only.
      const empty = await download(p(), `/company/${spec.key}/export`, c.token);
      expect(empty.status).toBe(200);
      expect(readRows(empty.data)).toEqual([spec.columns.map((col) => col.name)]);

      const up = await p().api('POST', `/company/${spec.key}/store`, {
        token: c.token,
        payload: form({}, { field: spec.fileField, name: 'in.xlsx', data: fileOf(spec, [...spec.examples, ...EXTRA[spec.key]]) }),
      });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const before = await stored(spec.table, 'company_id', c.id);
      expect(before).toHaveLength(spec.examples.length + 1);

      const out = await download(p(), `/company/${spec.key}/export`, c.token);
      expect(out.status).toBe(200);
      expect(out.headers['content-type']).toContain('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(out.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="${slug(TABLE_NAMES[spec.key].it.many)}-${c.id}-\\d{4}-\\d{2}-\\d{2}\\.xlsx"`),
      );
      expectFileOf(spec, out.data, before);

      // The admin exports the same file for this carrier.
      const byAdmin = await download(p(), `/admin/${spec.key}/export?company_id=${c.id}`, admin);
      expect(byAdmin.status).toBe(200);
      expect(readRows(byAdmin.data)).toEqual(readRows(out.data));

      // Round trip: the export checked against the stored set changes nothing; published, it replaces
      // the set with the same rows.
      const check = await p().api('POST', `/company/${spec.key}/store`, {
        token: c.token,
        payload: form({ dry_run: 1 }, { field: spec.fileField, name: 'export.xlsx', data: out.data }),
      });
      expect(check.status, JSON.stringify(check.body)).toBe(200);
      expect(check.body.data).toMatchObject({
        dry_run: true,
        errors: [],
        changes: [],
        summary: { added: 0, changed: 0, removed: 0, unchanged: before.length },
      });
      const again = await p().api('POST', `/admin/${spec.key}/store`, {
        token: admin,
        payload: form({ company_id: c.id }, { field: spec.fileField, name: 'export.xlsx', data: out.data }),
      });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      // The publish says what changed: nothing (issue 35).
      expect(again.body.data.summary).toEqual({ added: 0, changed: 0, removed: 0, unchanged: before.length });
      expect(again.body.message).toBe(`File pubblicato: ${before.length} righe invariate.`);
      expect(withoutIds(await stored(spec.table, 'company_id', c.id))).toEqual(withoutIds(before));
    }
  });

  it('exports a rate sheet of each kind as stored; checked as its next version all unchanged, uploaded as a new sheet the same rows', async () => {
    const c = await createCarrier(p(), 'Listini Export');
    for (const [spec, rateType, extra] of [
      [EXPRESS_RATE_ROWS, 'EXP', { ...EXPRESS_RATE_ROWS.examples[0], province: 'AO', p150: 0.05, p300: null, leadtime: null, hub: '', rate_code: '007' }],
      [STANDARD_RATE_ROWS, 'STD', STD_EXTRA],
    ] as const) {
      const fields = { zone: 'NAT', rate_type: rateType, area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31', is_standard: 1 };
      const first = await p().api('POST', '/company/rate_sheet/store', {
        token: c.token,
        payload: form(fields, { field: 'rate_sheet', name: 'listino.xlsx', data: fileOf(spec, [...spec.examples, extra]) }),
      });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const sheet = first.body.data;
      const before = await stored(spec.table, 'rate_sheet_id', sheet.id);
      expect(before).toHaveLength(spec.examples.length + 1);

      const out = await download(p(), `/company/rate_sheet/export/${sheet.id}`, c.token);
      expect(out.status).toBe(200);
      expect(out.headers['content-type']).toContain('spreadsheetml');
      expect(out.headers['content-disposition']).toContain(`attachment; filename="listino-${sheet.code}.xlsx"`);
      expectFileOf(spec, out.data, before);
      const byAdmin = await download(p(), `/admin/rate_sheet/export/${sheet.id}?company_id=${c.id}`, admin);
      expect(readRows(byAdmin.data)).toEqual(readRows(out.data));

      // Checked as the next version of the sheet's category: every row unchanged.
      const check = await p().api('POST', '/company/rate_sheet/store', {
        token: c.token,
        payload: form({ ...fields, category_id: sheet.category_id, dry_run: 1 }, { field: 'rate_sheet', name: `${sheet.code}.xlsx`, data: out.data }),
      });
      expect(check.status, JSON.stringify(check.body)).toBe(200);
      expect(check.body.data).toMatchObject({
        dry_run: true,
        errors: [],
        changes: [],
        summary: { added: 0, changed: 0, removed: 0, unchanged: before.length },
      });

      const second = await p().api('POST', '/company/rate_sheet/store', {
        token: c.token,
        payload: form(fields, { field: 'rate_sheet', name: `${sheet.code}.xlsx`, data: out.data }),
      });
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body.data.id).not.toBe(sheet.id);
      expect(withoutIds(await stored(spec.table, 'rate_sheet_id', second.body.data.id))).toEqual(withoutIds(before));
    }
  });

  it('keeps to the tenant: another carrier’s sheet is a 404, a company_id never reaches /company, other roles are refused', async () => {
    const a = await createCarrier(p(), 'Tenant Alfa');
    const b = await createCarrier(p(), 'Tenant Beta');
    const spec = TARIFF_TABLES[0];
    const up = await p().api('POST', `/company/${spec.key}/store`, {
      token: a.token,
      payload: form({}, { field: spec.fileField, name: 'a.xlsx', data: fileOf(spec, spec.examples) }),
    });
    expect(up.status).toBe(200);
    const sheet = await p().api('POST', '/company/rate_sheet/store', {
      token: a.token,
      payload: form(
        { zone: 'NAT', rate_type: 'EXP', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31', is_standard: 1 },
        { field: 'rate_sheet', name: 'a.xlsx', data: fileOf(EXPRESS_RATE_ROWS, EXPRESS_RATE_ROWS.examples) },
      ),
    });
    expect(sheet.status).toBe(200);
    const id = sheet.body.data.id;

    // B asks for A's sheet, with or without A's company_id: 404, and the answer is no file.
    for (const url of [`/company/rate_sheet/export/${id}`, `/company/rate_sheet/export/${id}?company_id=${a.id}`]) {
      const r = await download(p(), url, b.token);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toContain('application/json');
    }
    // The admin naming B for A's sheet: 404; an id that is no sheet: 404; a company that owns no tariffs: 404.
    expect((await download(p(), `/admin/rate_sheet/export/${id}?company_id=${b.id}`, admin)).status).toBe(404);
    expect((await download(p(), '/admin/rate_sheet/export/999999', admin)).status).toBe(404);
    expect((await download(p(), `/admin/${spec.key}/export?company_id=${a.enduserId}`, admin)).status).toBe(404);
    // B's table export with A's company_id is B's own (empty) set.
    const own = await download(p(), `/company/${spec.key}/export?company_id=${a.id}`, b.token);
    expect(own.status).toBe(200);
    expect(readRows(own.data)).toEqual([spec.columns.map((col) => col.name)]);
    expect(own.headers['content-disposition']).toContain(`${slug(TABLE_NAMES[spec.key].it.many)}-${b.id}-`);

    // Outside the policy: a carrier on /admin, end users anywhere.
    expect((await download(p(), `/admin/${spec.key}/export?company_id=${a.id}`, a.token)).status).toBe(403);
    expect((await download(p(), `/admin/rate_sheet/export/${id}`, a.token)).status).toBe(403);
    for (const url of [`/company/${spec.key}/export`, `/company/rate_sheet/export/${id}`, `/admin/${spec.key}/export`]) {
      const r = await download(p(), url, enduser);
      expect(r.status, url).toBe(403);
    }
    // Without a session: 401.
    expect((await download(p(), `/company/${spec.key}/export`, '')).status).toBe(401);
  });
});
