import { beforeAll, expect, it } from 'vitest';
import { EXPRESS_RATE_ROWS, tariffTable } from '../../model/tariffs.js';
import { describeEachDb } from './helpers.js';
import { createCarrier, download, form, readRows, xlsx } from './tariffs.helpers.js';

/**
 * Issue 35 item 8: the class column (type_id) takes the words the screens show (SILVER, GOLD, any case)
 * as well as 1 and 2, on upload and on the check, and refuses anything else naming the values allowed;
 * templates and exports write the words, so an exported file imports again; a publish says what changed;
 * the tariff lists search with `q`.
 */
const islands = tariffTable('express_island_zones')!;
const hubCosts = tariffTable('express_hub_costs')!;
const header = islands.columns.map((c) => c.name);
/** An island-zone row: island, special_zone, quintal_cost, multiplier, p150…p1000, type_id. */
const island = (name: string, cls: string | number, p150 = 10): Array<string | number> => [name, '', 1, 1, p150, 20, 30, 40, 50, cls];
const sheetFields = { zone: 'NAT', rate_type: 'EXP', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31', is_standard: 1 };

describeEachDb('tariff classes, publish message and search', (p) => {
  let acme: Awaited<ReturnType<typeof createCarrier>>;
  let other: Awaited<ReturnType<typeof createCarrier>>;
  beforeAll(async () => {
    acme = await createCarrier(p(), 'Classi Trasporti');
    other = await createCarrier(p(), 'Altri Trasporti');
  });
  const upload = (token: string, key: string, field: string, data: Buffer, extra: Record<string, string | number> = {}, lang?: string) =>
    p().api('POST', `/company/${key}/store`, { token, lang, payload: form(extra, { field, name: 'file.xlsx', data }) });
  const list = (token: string, key: string, query: string) => p().api('GET', `/company/${key}?per_page=100&sort=id${query}`, { token });

  it('takes SILVER and GOLD in any case, and 1 and 2, on the check and on the upload', async () => {
    const file = xlsx([header, island('Elba', 'SILVER'), island('Elba', ' gold '), island('Capri', 1), island('Capri', '2'), island('Ischia', 'Gold')]);
    const check = await upload(acme.token, islands.key, islands.fileField, file, { dry_run: 1 });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.data).toMatchObject({ errors: [], summary: { added: 5, changed: 0, removed: 0, unchanged: 0 } });
    const up = await upload(acme.token, islands.key, islands.fileField, file);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const rows = await list(acme.token, islands.key, '');
    expect(rows.body.island_zones.data.map((r: any) => [r.island, r.type_id])).toEqual([
      ['Elba', 1],
      ['Elba', 2],
      ['Capri', 1],
      ['Capri', 2],
      ['Ischia', 2],
    ]);

    // A rate sheet's check and upload take the words too.
    const sheet = xlsx([
      EXPRESS_RATE_ROWS.columns.map((c) => c.name),
      ['R1', 'Z1', 'IT', 'Lombardia', 'HUBMI', 'MI', 38, 52, 68, 75, 96, 1, 'silver'],
      ['R1', 'Z1', 'IT', 'Lombardia', 'HUBMI', 'MI', 49, 66, 86, 95, 121, 1, 'GOLD'],
    ]);
    const sheetCheck = await p().api('POST', '/company/rate_sheet/store', {
      token: acme.token,
      payload: form({ ...sheetFields, dry_run: 1 }, { field: 'rate_sheet', name: 's.xlsx', data: sheet }),
    });
    expect(sheetCheck.status, JSON.stringify(sheetCheck.body)).toBe(200);
    expect(sheetCheck.body.data).toMatchObject({ errors: [], summary: { added: 2 } });
    const created = await p().api('POST', '/company/rate_sheet/store', {
      token: acme.token,
      payload: form(sheetFields, { field: 'rate_sheet', name: 's.xlsx', data: sheet }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sheetRows = await p().api('GET', `/company/rate_sheet/rows/${created.body.data.id}?sort=id`, { token: acme.token });
    expect(sheetRows.body.data.map((r: any) => r.type_id)).toEqual([1, 2]);
  });

  it('refuses an unknown class naming the values allowed, in the caller language, on the check and on the upload', async () => {
    const c = await createCarrier(p(), 'Classi Errate');
    const file = xlsx([header, island('Elba', 'BRONZE'), island('Capri', 3), island('Ischia', 'GOLD'), island('Giglio', 1.5)]);
    const it = await upload(c.token, islands.key, islands.fileField, file);
    expect(it.status).toBe(422);
    expect(it.body.errors).toEqual({
      'Riga 2, type_id': ['"BRONZE" non è ammesso: usa uno tra SILVER, GOLD (oppure 1, 2).'],
      'Riga 3, type_id': ['"3" non è ammesso: usa uno tra SILVER, GOLD (oppure 1, 2).'],
      'Riga 5, type_id': ['"1.5" non è ammesso: usa uno tra SILVER, GOLD (oppure 1, 2).'],
    });
    const en = await upload(c.token, islands.key, islands.fileField, file, { dry_run: 1 }, 'en');
    expect(en.status).toBe(200);
    expect(en.body.data.errors).toEqual([
      { row: 2, column: 'type_id', message: 'row 2, column type_id: "BRONZE" is not allowed: use one of SILVER, GOLD (or 1, 2).' },
      { row: 3, column: 'type_id', message: 'row 3, column type_id: "3" is not allowed: use one of SILVER, GOLD (or 1, 2).' },
      { row: 5, column: 'type_id', message: 'row 5, column type_id: "1.5" is not allowed: use one of SILVER, GOLD (or 1, 2).' },
    ]);
    const fr = await upload(c.token, islands.key, islands.fileField, file, { dry_run: 1 }, 'fr');
    expect(fr.body.data.errors[0].message).toContain('« BRONZE » n’est pas admis : utilisez SILVER, GOLD (ou 1, 2).');
    // Nothing stored, and never "not a whole number".
    expect(JSON.stringify([it.body, en.body, fr.body])).not.toMatch(/intero|whole number|entier/i);
    expect((await list(c.token, islands.key, '')).body.island_zones.total).toBe(0);
  });

  it('writes SILVER and GOLD in templates and exports; the export imports again unchanged', async () => {
    const tpl = await download(p(), `/company/tariff_templates/${islands.templateKey}`, acme.token);
    const typeCol = header.indexOf('type_id');
    expect(
      readRows(tpl.data)
        .slice(1)
        .map((r) => r[typeCol]),
    ).toEqual(islands.examples.map((e) => (e.type_id === 1 ? 'SILVER' : 'GOLD')));
    const sheetTpl = await download(p(), '/company/tariff_templates/express_rate_sheet', acme.token);
    expect(
      readRows(sheetTpl.data)
        .slice(1)
        .map((r) => r.at(-1)),
    ).toEqual(['SILVER', 'GOLD', 'SILVER', 'GOLD']);

    const out = await download(p(), `/company/${islands.key}/export`, acme.token);
    expect(out.status).toBe(200);
    expect(
      readRows(out.data)
        .slice(1)
        .map((r) => [r[0], r[typeCol]]),
    ).toEqual([
      ['Elba', 'SILVER'],
      ['Elba', 'GOLD'],
      ['Capri', 'SILVER'],
      ['Capri', 'GOLD'],
      ['Ischia', 'GOLD'],
    ]);
    const again = await upload(acme.token, islands.key, islands.fileField, out.data);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.summary).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 5 });
    expect(again.body.message).toBe('File pubblicato: 5 righe invariate.');
  });

  it('says what a publish changed, from the check summary, in the caller language', async () => {
    const c = await createCarrier(p(), 'Messaggi Trasporti');
    const rows = Array.from({ length: 38 }, (_v, i) => [`HUB${String(i).padStart(2, '0')}`, 5, 9]);
    const first = await upload(c.token, hubCosts.key, hubCosts.fileField, xlsx([['code', 'silver', 'gold'], ...rows]));
    expect(first.body.message).toBe('File pubblicato: 38 righe nuove.');
    // One price changed: the check and the publish count the same.
    const changed = rows.map((r, i) => (i === 7 ? [r[0], 6, 9] : r));
    const file = xlsx([['code', 'silver', 'gold'], ...changed]);
    const check = await upload(c.token, hubCosts.key, hubCosts.fileField, file, { dry_run: 1 });
    expect(check.body.data.summary).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 37 });
    const pub = await upload(c.token, hubCosts.key, hubCosts.fileField, file);
    expect(pub.status).toBe(200);
    expect(pub.body.message).toBe('File pubblicato: 1 riga modificata, 37 invariate.');
    expect(pub.body.data).toEqual({ count: 38, company_id: c.id, summary: check.body.data.summary });
    // English and French; a new row, a removed one and a changed one together.
    const mixed = [...changed.slice(1).map((r, i) => (i === 0 ? [r[0], 7, 9] : r)), ['HUBNEW', 1, 2]];
    const en = await upload(c.token, hubCosts.key, hubCosts.fileField, xlsx([['code', 'silver', 'gold'], ...mixed]), {}, 'en');
    expect(en.body.message).toBe('File published: 1 row changed, 1 added, 1 removed, 36 unchanged.');
    const fr = await upload(c.token, hubCosts.key, hubCosts.fileField, xlsx([['code', 'silver', 'gold'], ...rows]), {}, 'fr');
    expect(fr.body.message).toBe('Fichier publié : 2 lignes modifiées, 1 ajoutée, 1 supprimée, 35 inchangées.');

    // A rate sheet's version: against the one it follows.
    const sheet = (p150: number) =>
      xlsx([
        EXPRESS_RATE_ROWS.columns.map((col) => col.name),
        ['R1', 'Z1', 'IT', 'Lombardia', 'HUBMI', 'MI', p150, 52, 68, 75, 96, 1, 'SILVER'],
        ['R1', 'Z1', 'IT', 'Lombardia', 'HUBMI', 'MI', 49, 66, 86, 95, 121, 1, 'GOLD'],
      ]);
    const v1 = await p().api('POST', '/company/rate_sheet/store', {
      token: c.token,
      payload: form(sheetFields, { field: 'rate_sheet', name: 'v1.xlsx', data: sheet(38) }),
    });
    expect(v1.body.message).toMatch(/^Listino \w+ creato: 2 righe nuove\.$/);
    const v2 = await p().api('POST', '/company/rate_sheet/store', {
      token: c.token,
      payload: form({ ...sheetFields, category_id: v1.body.data.category_id }, { field: 'rate_sheet', name: 'v2.xlsx', data: sheet(40) }),
    });
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body.data.summary).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 1 });
    expect(v2.body.message).toBe(`Listino ${v2.body.data.code} creato: 1 riga modificata, 1 invariata.`);
  });

  it('searches a tariff list with q: text columns and class words, wildcards taken literally, within the tenant', async () => {
    const codes = (r: any) => r.body.express_hub_costs.data.map((x: any) => x.code);
    await upload(
      acme.token,
      hubCosts.key,
      hubCosts.fileField,
      xlsx([
        ['code', 'silver', 'gold'],
        ['HUBMI', 1, 2],
        ['HUB_RM', 1, 2],
        ['HUB%NA', 1, 2],
        ['XMI', 1, 2],
      ]),
    );
    await upload(
      other.token,
      hubCosts.key,
      hubCosts.fileField,
      xlsx([
        ['code', 'silver', 'gold'],
        ['HUBMI2', 1, 2],
      ]),
    );
    expect(codes(await list(acme.token, hubCosts.key, '&q=mi'))).toEqual(['HUBMI', 'XMI']);
    expect(codes(await list(acme.token, hubCosts.key, '&q=%20hubmi%20'))).toEqual(['HUBMI']);
    // % and _ are characters, not wildcards.
    expect(codes(await list(acme.token, hubCosts.key, `&q=${encodeURIComponent('_')}`))).toEqual(['HUB_RM']);
    expect(codes(await list(acme.token, hubCosts.key, `&q=${encodeURIComponent('%')}`))).toEqual(['HUB%NA']);
    expect(codes(await list(acme.token, hubCosts.key, '&q='))).toHaveLength(4);
    const page = await p().api('GET', `/company/${hubCosts.key}?per_page=2&q=hub`, { token: acme.token });
    expect(page.body.express_hub_costs).toMatchObject({ total: 3, last_page: 2 });
    // The other carrier's row never shows; the admin searches the carrier it names.
    expect(codes(await list(other.token, hubCosts.key, '&q=hubmi'))).toEqual(['HUBMI2']);
    const admin = await p().login('admin@portal.demo');
    const byAdmin = await p().api('GET', `/admin/${hubCosts.key}?company_id=${other.id}&q=hub`, { token: admin });
    expect(codes(byAdmin)).toEqual(['HUBMI2']);
    // Bounded: over 100 characters is refused by the schema.
    const long = await list(acme.token, hubCosts.key, `&q=${'a'.repeat(101)}`);
    expect(long.status).toBe(422);

    // The class word finds its class.
    const gold = await list(acme.token, islands.key, '&q=gold');
    expect(gold.body.island_zones.data.map((r: any) => [r.island, r.type_id])).toEqual([
      ['Elba', 2],
      ['Capri', 2],
      ['Ischia', 2],
    ]);
    expect((await list(acme.token, islands.key, '&q=capr')).body.island_zones.data.map((r: any) => r.island)).toEqual(['Capri', 'Capri']);
  });

  it('searches a rate sheet rows and the rate sheets list with q, within the tenant', async () => {
    const rows = xlsx([
      EXPRESS_RATE_ROWS.columns.map((c) => c.name),
      ['R1', 'Z1', 'IT', 'Lombardia', 'HUBMI', 'MI', 38, 52, 68, 75, 96, 1, 'SILVER'],
      ['R1', 'Z1', 'IT', 'Lombardia', 'HUBMI', 'MI', 49, 66, 86, 95, 121, 1, 'GOLD'],
      ['R1', 'Z3', 'IT', 'Lazio', 'HUBRM', 'RM', 56, 80, 104, 114, 146, 2, 'SILVER'],
    ]);
    const created = await p().api('POST', '/company/rate_sheet/store', {
      token: acme.token,
      payload: form({ ...sheetFields, description: 'Listino cercabile' }, { field: 'rate_sheet', name: 'q.xlsx', data: rows }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const search = (q: string, token = acme.token) => p().api('GET', `/company/rate_sheet/rows/${id}?sort=id&q=${encodeURIComponent(q)}`, { token });
    expect((await search('lazio')).body.data.map((r: any) => r.province)).toEqual(['RM']);
    expect((await search('gold')).body).toMatchObject({ total: 1, data: [expect.objectContaining({ province: 'MI', type_id: 2 })] });
    expect((await search('%')).body.total).toBe(0);
    // Another carrier's sheet stays a 404, searched or not.
    expect((await search('mi', other.token)).status).toBe(404);

    const found = await p().api('GET', `/company/rate_sheet?q=${encodeURIComponent('cercabile')}`, { token: acme.token });
    expect(found.body.data.map((s: any) => s.id)).toEqual([id]);
    expect((await p().api('GET', `/company/rate_sheet?q=cercabile`, { token: other.token })).body.total).toBe(0);
    expect((await p().api('GET', `/company/rate_sheet?q=${'x'.repeat(101)}`, { token: acme.token })).status).toBe(422);
  });
});
