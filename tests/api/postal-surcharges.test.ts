import { beforeAll, expect, it } from 'vitest';
import { tariffTable } from '../../model/tariffs.js';
import { DEMO, describeEachDb } from './helpers.js';
import { createCarrier, download, form, readRows, xlsx } from './tariffs.helpers.js';

/** The seventh tariff table (pricing.md §8): its own rules on top of the generic tariff-table tests. */
const spec = tariffTable('postal_surcharges')!;
const HEADER = ['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent'];

describeEachDb('postal surcharges', (p) => {
  let admin: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
  });
  const store = (token: string, data: Buffer, fields: Record<string, string | number> = {}, lang?: string) =>
    p().api('POST', '/company/postal_surcharges/store', { token, lang, payload: form(fields, { field: 'postal_surcharges', name: 'ps.xlsx', data }) });
  const stored = (companyId: number) =>
    (p().db.db as any)
      .selectFrom('postal_surcharges')
      .select(['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent'])
      .where('company_id', '=', companyId)
      .orderBy('id')
      .execute();

  it('is declared from the tariff schema: key columns, fixed-or-percent rule, columns in the documented order', () => {
    expect(spec.columns.map((c) => c.name)).toEqual(HEADER);
    expect(spec.rowKey).toEqual(['country', 'postal_code', 'kind', 'flow']);
    expect(spec.anyOf).toEqual(['fixed', 'percent']);
  });

  it('round-trips: template → upload → list → export → dry run unchanged; cents and percent text stored, an empty country is IT', async () => {
    const c = await createCarrier(p(), 'Postal Trasporti');
    const t = await download(p(), '/company/tariff_templates/postal_surcharges', c.token);
    expect(t.status).toBe(200);
    expect(t.headers['content-disposition']).toContain('filename="modello-supplementi-cap.xlsx"');
    const up = await store(c.token, t.data);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data.count).toBe(3);
    expect(await stored(c.id)).toEqual([
      { country: 'IT', postal_code: '20121', kind: 'ztl', flow: 'OUT', fixed: 1500, percent: null },
      { country: 'IT', postal_code: '301*', kind: 'ztl', flow: null, fixed: 2000, percent: '2.5' },
      { country: 'IT', postal_code: '23030', kind: 'remote', flow: null, fixed: null, percent: '10' },
    ]);

    const list = await p().api('GET', '/company/postal_surcharges?per_page=100&sort=id', { token: c.token });
    expect(list.status).toBe(200);
    expect(list.body.postal_surcharges.total).toBe(3);
    expect(list.body.postal_surcharges.data[1]).toMatchObject({ country: 'IT', postal_code: '301*', kind: 'ztl', flow: null, fixed: 20, percent: '2.5' });

    const out = await download(p(), '/company/postal_surcharges/export', c.token);
    expect(out.status).toBe(200);
    expect(readRows(out.data)[0]).toEqual(HEADER);
    const check = await store(c.token, out.data, { dry_run: 1 });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.data).toMatchObject({ dry_run: true, errors: [], changes: [], summary: { added: 0, changed: 0, removed: 0, unchanged: 3 } });

    // Written by hand: lower-case flow, upper-case kind, an empty country, a decimal comma, a 4-digit numeric
    // code getting its leading zero back, a prefix with a space. The empty country is the stored IT row.
    const hand = xlsx([
      HEADER,
      ['', '20121', 'ZTL', 'out', '15', ''],
      ['it', '301 *', 'ztl', '', 20, '2,5'],
      ['IT', '23030', 'remote', null, null, 10],
      ['FR', 6000, 'other', 'in', 3.333, null],
    ]);
    const dry = await store(c.token, hand, { dry_run: 1 });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data.summary).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 3 });
    expect(await stored(c.id)).toHaveLength(3);
    const pub = await store(c.token, hand);
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    expect((await stored(c.id))[3]).toEqual({ country: 'FR', postal_code: '06000', kind: 'other', flow: 'IN', fixed: 333, percent: null });
  });

  it('refuses both amounts empty, an unknown kind or flow, a bad prefix and a repeated key, naming row and column; stores nothing', async () => {
    const c = await createCarrier(p(), 'Postal Rifiuti');
    const rows = [
      HEADER,
      ['IT', '20121', 'ztl', 'OUT', 15, null],
      ['IT', '20122', 'ztl', 'OUT', null, ''],
      ['IT', '20123', 'parking', 'OUT', 5, null],
      ['IT', '20124', 'ztl', 'BOTH', 5, null],
      ['IT', '3*01', 'remote', '', 5, null],
      ['', '20121', 'ZTL', 'out', 9, null],
      ['IT', '20121', 'ztl', '', 9, null],
    ];
    const res = await store(c.token, xlsx(rows));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'Riga 3, fixed': ['Compila almeno uno tra fixed, percent.'],
      'Riga 4, kind': ['"parking" non è ammesso: usa uno tra ztl, remote, other.'],
      'Riga 5, flow': ['"BOTH" non è ammesso: usa uno tra IN, OUT.'],
      'Riga 6, postal_code': ['"3*01" non è un CAP né un prefisso che finisce con * (es. 301*).'],
      'Riga 7, country': ['Già presente alla riga 2 (country IT, postal_code 20121, kind ztl, flow OUT).'],
    });
    expect(await stored(c.id)).toEqual([]);

    const en = await store(c.token, xlsx(rows), { dry_run: 1 }, 'en');
    expect(en.status).toBe(200);
    expect(en.body.data.errors).toEqual([
      { row: 3, column: 'fixed', message: expect.stringMatching(/^row 3, column fixed: Fill in at least one of fixed, percent\.$/) },
      { row: 4, column: 'kind', message: expect.stringMatching(/^row 4, column kind: .*"parking" is not allowed: use one of ztl, remote, other\.$/) },
      { row: 5, column: 'flow', message: expect.stringMatching(/^row 5, column flow: .*"BOTH" is not allowed: use one of IN, OUT\.$/) },
      { row: 6, column: 'postal_code', message: expect.stringMatching(/^row 6, column postal_code: .*"3\*01" is not a postal code or a prefix ending in \*/) },
      { row: 7, column: 'country', message: expect.stringMatching(/^row 7, column country: .*row 2/) },
    ]);
    expect(await stored(c.id)).toEqual([]);
  });

  it('keeps carriers apart: a carrier lists only its own rows; the admin picks the carrier', async () => {
    const a = await createCarrier(p(), 'Postal Uno');
    const b = await createCarrier(p(), 'Postal Due');
    const fileA = xlsx([HEADER, ['IT', '00184', 'ztl', 'OUT', 10, null]]);
    const fileB = xlsx([HEADER, ['IT', '50*', 'remote', 'IN', null, 3]]);
    expect((await store(a.token, fileA)).status).toBe(200);
    expect((await store(b.token, fileB)).status).toBe(200);
    const listA = await p().api('GET', '/company/postal_surcharges?per_page=100', { token: a.token });
    expect(listA.body.postal_surcharges.data.map((r: any) => r.postal_code)).toEqual(['00184']);
    const listB = await p().api('GET', `/company/postal_surcharges?per_page=100&company_id=${a.id}`, { token: b.token });
    expect((listB.body.postal_surcharges?.data ?? []).map((r: any) => r.postal_code)).not.toContain('00184');
    const byAdmin = await p().api('GET', `/admin/postal_surcharges?per_page=100&company_id=${b.id}`, { token: admin });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.postal_surcharges.data.map((r: any) => r.postal_code)).toEqual(['50*']);
    // B's delete empties only B's set.
    expect((await p().api('GET', '/company/postal_surcharges/destroy', { token: b.token })).body.data.count).toBe(1);
    expect(await stored(b.id)).toEqual([]);
    expect(await stored(a.id)).toHaveLength(1);
  });
});
