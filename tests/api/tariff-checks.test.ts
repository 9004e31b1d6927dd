import { sql, type Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS, TARIFF_LIMITS, TARIFF_TABLES } from '../../model/tariffs.js';
import { compareSets, storedPages } from '../../server/imports/check.js';
import type { ImportRow } from '../../server/imports/validate.js';
import { DEMO, describeEachDb } from './helpers.js';
import { filesState } from './fileHelpers.js';
import { createCarrier, download, form, xlsx } from './tariffs.helpers.js';

const HEAD = ['code', 'silver', 'gold'];
const hubFile = (rows: Array<Array<string | number | null>>) => ({ field: 'hub_costs', name: 'hub.xlsx', data: xlsx([HEAD, ...rows]) });

describeEachDb('tariff checks (dry run) and publish', (p) => {
  let admin: string;
  let carrier: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
  });

  const upload = (token: string, ns: 'admin' | 'company', fields: Record<string, string | number>, file: ReturnType<typeof hubFile>, lang?: string) =>
    p().api('POST', `/${ns}/express_hub_costs/store`, { token, lang, payload: form(fields, file) });
  const hubs = async (companyId: number) =>
    (await p().db.db.selectFrom('express_hub_costs').select(['code', 'silver', 'gold']).where('company_id', '=', companyId).orderBy('code').execute()).map(
      (r) => [r.code, Number(r.silver), Number(r.gold)],
    );
  // Every file of the portal's store (pending marks included): a check must leave none.
  const filesNow = () => filesState(p());

  it('checks a valid file against the stored set: summary and changes by key, nothing stored, no file left', async () => {
    const c = await createCarrier(p(), 'Check Cargo');
    const first = await upload(
      c.token,
      'company',
      {},
      hubFile([
        ['HUBMI', 5, 9],
        ['HUBRM', 6, 11],
        ['HUBNA', 7, 12],
      ]),
    );
    expect(first.status).toBe(200);
    const files = await filesNow();

    const check = await upload(
      c.token,
      'company',
      { dry_run: 1 },
      hubFile([
        ['hubmi', 5, 9],
        ['HUBRM', 6.5, 11],
        ['HUBTO', 3, null],
      ]),
    );
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body).toEqual({
      outcome: 'checked',
      status: true,
      data: {
        dry_run: true,
        errors: [],
        summary: { added: 1, changed: 1, removed: 1, unchanged: 1 },
        changes: [
          { key: { code: 'HUBRM' }, before: { code: 'HUBRM', silver: 6, gold: 11 }, after: { code: 'HUBRM', silver: 6.5, gold: 11 } },
          { key: { code: 'HUBTO' }, before: null, after: { code: 'HUBTO', silver: 3, gold: null } },
          { key: { code: 'HUBNA' }, before: { code: 'HUBNA', silver: 7, gold: 12 }, after: null },
        ],
        impact: null,
      },
    });
    expect(await hubs(c.id)).toEqual([
      ['HUBMI', 500, 900],
      ['HUBNA', 700, 1200],
      ['HUBRM', 600, 1100],
    ]);
    expect(await filesNow()).toEqual(files);

    // The admin checks the same carrier's set by company_id; an empty set: every row added.
    const byAdmin = await upload(admin, 'admin', { company_id: c.id, dry_run: 1 }, hubFile([['HUBMI', 5, 9]]));
    expect(byAdmin.body.data.summary).toEqual({ added: 0, changed: 0, removed: 2, unchanged: 1 });
    await p().api('GET', '/company/express_hub_costs/destroy', { token: c.token });
    const empty = await upload(c.token, 'company', { dry_run: 1 }, hubFile([['HUBMI', 5, 9]]));
    expect(empty.body.data.summary).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 0 });
  });

  it('finds every row of each table and rate sheet unchanged when its own template is checked after publishing it', async () => {
    const c = await createCarrier(p(), 'Template Cargo');
    for (const spec of TARIFF_TABLES) {
      const tpl = await download(p(), `/company/tariff_templates/${spec.templateKey}`, c.token);
      const file = { field: spec.fileField, name: 't.xlsx', data: tpl.data };
      const send = (fields: Record<string, number>) => p().api('POST', `/company/${spec.key}/store`, { token: c.token, payload: form(fields, file) });
      expect((await send({})).status, spec.key).toBe(200);
      const check = await send({ dry_run: 1 });
      expect(check.body.data, spec.key).toEqual({
        dry_run: true,
        errors: [],
        summary: { added: 0, changed: 0, removed: 0, unchanged: spec.examples.length },
        changes: [],
        impact: null,
      });
    }
    for (const [spec, zone] of [
      [EXPRESS_RATE_ROWS, 'NAT'],
      [STANDARD_RATE_ROWS, 'INT'],
    ] as const) {
      const tpl = await download(p(), `/company/tariff_templates/${spec.templateKey}`, c.token);
      const fields = { zone, rate_type: spec === EXPRESS_RATE_ROWS ? 'EXP' : 'STD', area: 'Supplier', validate_from: '2025-01-01', validate_to: '2030-12-31' };
      const send = (extra: Record<string, number>) =>
        p().api('POST', '/company/rate_sheet/store', {
          token: c.token,
          payload: form({ ...fields, ...extra }, { field: 'rate_sheet', name: 'r.xlsx', data: tpl.data }),
        });
      const v1 = await send({});
      expect(v1.status, JSON.stringify(v1.body)).toBe(200);
      const check = await send({ dry_run: 1, category_id: v1.body.data.category_id });
      expect(check.body.data.summary, spec.table).toEqual({ added: 0, changed: 0, removed: 0, unchanged: spec.examples.length });
    }
  });

  it(`counts every row but lists the first ${TARIFF_LIMITS.listedChanges} changes`, async () => {
    const c = await createCarrier(p(), 'Molte Righe Cargo');
    const rows = Array.from({ length: 250 }, (_, i) => [`HUB${i}`, i, i + 1]);
    const check = await upload(c.token, 'company', { dry_run: 1 }, hubFile(rows));
    expect(check.body.data.summary).toEqual({ added: 250, changed: 0, removed: 0, unchanged: 0 });
    expect(check.body.data.changes).toHaveLength(TARIFF_LIMITS.listedChanges);
    expect(check.body.data.changes.at(-1)).toEqual({ key: { code: 'HUB199' }, before: null, after: { code: 'HUB199', silver: 199, gold: 200 } });
    expect(await hubs(c.id)).toEqual([]);
  });

  it('reads the stored set a page at a time in id order, and compares it page by page as it would whole', async () => {
    const c = await createCarrier(p(), 'Pagine Cargo');
    const rows = Array.from({ length: 7 }, (_, i) => [`HUB${i}`, i, i + 1]);
    expect((await upload(c.token, 'company', {}, hubFile(rows))).status).toBe(200);
    const spec = TARIFF_TABLES.find((t) => t.table === 'express_hub_costs')!;
    const db = p().db.db as unknown as Kysely<any>;
    const pages: Array<Array<Record<string, unknown>>> = [];
    for await (const page of storedPages(db, spec, ['company_id', c.id], 3)) pages.push(page);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    const ids = pages.flat().map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(pages.flat().map((r) => r.code)).toEqual(rows.map((r) => r[0]));
    const incoming = [{ code: 'HUB1', silver: 100, gold: 200 }, { code: 'HUB9', silver: 1, gold: 2 }, ...pages.flat().slice(3)] as ImportRow[];
    expect(await compareSets(spec, storedPages(db, spec, ['company_id', c.id], 2), incoming)).toEqual(await compareSets(spec, pages.flat(), incoming));
  });

  it('lists every bad cell by row, column and message in the caller language; without dry_run: 422, the same list, nothing stored', async () => {
    const c = await createCarrier(p(), 'Errori Cargo');
    expect((await upload(c.token, 'company', {}, hubFile([['HUBMI', 5, 9]]))).status).toBe(200);
    const bad = hubFile([
      ['HUBRM', 5, 9],
      ['HUBNA', '12,5O', 9],
      [null, 1, -2],
    ]);

    const it_ = await upload(c.token, 'company', { dry_run: 1 }, bad);
    expect(it_.status).toBe(200);
    expect(it_.body.data).toEqual({
      dry_run: true,
      errors: [
        { row: 3, column: 'silver', message: 'riga 3, colonna silver: Non è un numero: "12,5O".' },
        { row: 4, column: 'code', message: 'riga 4, colonna code: Valore obbligatorio.' },
        { row: 4, column: 'gold', message: 'riga 4, colonna gold: Non può essere negativo.' },
      ],
      summary: { added: 0, changed: 0, removed: 0, unchanged: 0 },
      changes: [],
      impact: null,
    });
    const en = await upload(c.token, 'company', { dry_run: 1 }, bad, 'en');
    expect(en.body.data.errors.map((e: any) => e.message)).toEqual([
      'row 3, column silver: Not a number: "12,5O".',
      'row 4, column code: A value is required.',
      'row 4, column gold: Must not be negative.',
    ]);

    const refused = await upload(c.token, 'company', {}, bad, 'en');
    expect(refused.status).toBe(422);
    expect(refused.body.data).toEqual({ dry_run: false, errors: en.body.data.errors });
    expect(refused.body.errors['Row 3, silver']).toEqual(['Not a number: "12,5O".']);
    expect(await hubs(c.id)).toEqual([['HUBMI', 500, 900]]);

    // A file-level problem is refused as before, dry run or not.
    const noHeader = await upload(
      c.token,
      'company',
      { dry_run: 1 },
      {
        field: 'hub_costs',
        name: 'h.xlsx',
        data: xlsx([
          ['code', 'silver'],
          ['HUBMI', 1],
        ]),
      },
    );
    expect(noHeader.status).toBe(422);
    expect(noHeader.body.message).toBe('Colonne mancanti nella prima riga: gold. La prima riga deve contenere: code, silver, gold.');
  });

  it('publishes by replacing the stored set in one transaction: a failure mid-way leaves the old set', async () => {
    const c = await createCarrier(p(), 'Atomica Cargo');
    expect(
      (
        await upload(
          c.token,
          'company',
          {},
          hubFile([
            ['HUBMI', 5, 9],
            ['HUBRM', 6, 11],
          ]),
        )
      ).status,
    ).toBe(200);
    const db = p().db.db;
    // The insert of a row coded BOOM fails after the old rows were deleted in the same transaction.
    if (p().dialect === 'postgres') {
      await sql`create function boom_hub() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`.execute(db);
      await sql`create trigger boom_hub before insert on express_hub_costs for each row when (new.code = 'BOOM') execute function boom_hub()`.execute(db);
    } else {
      await sql`create trigger boom_hub before insert on express_hub_costs when new.code = 'BOOM' begin select raise(abort, 'boom'); end`.execute(db);
    }
    try {
      const failed = await upload(
        c.token,
        'company',
        {},
        hubFile([
          ['HUBTO', 1, 2],
          ['BOOM', 1, 2],
        ]),
      );
      expect(failed.status).toBe(500);
      expect(await hubs(c.id)).toEqual([
        ['HUBMI', 500, 900],
        ['HUBRM', 600, 1100],
      ]);
    } finally {
      await sql`drop trigger boom_hub${sql.raw(p().dialect === 'postgres' ? ' on express_hub_costs' : '')}`.execute(db);
      if (p().dialect === 'postgres') await sql`drop function boom_hub()`.execute(db);
    }
    const ok = await upload(c.token, 'company', {}, hubFile([['HUBTO', 1, 2]]));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ count: 1, company_id: c.id, summary: { added: 1, changed: 0, removed: 2, unchanged: 0 } });
    expect(ok.body.message).toBe('File pubblicato: 1 riga nuova, 2 tolte.');
    expect(await hubs(c.id)).toEqual([['HUBTO', 100, 200]]);
    const audit = await db
      .selectFrom('audit_log')
      .select('changes')
      .where('company_id', '=', c.id)
      .where('action', '=', 'upload')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(JSON.parse(String(audit?.changes)).rows).toEqual({ before: 2, after: 1 });
  });

  it("never shows a carrier another tenant's rows", async () => {
    const a = await createCarrier(p(), 'Tenant A Cargo');
    const b = await createCarrier(p(), 'Tenant B Cargo');
    expect(
      (
        await upload(
          a.token,
          'company',
          {},
          hubFile([
            ['HUBMI', 41, 42],
            ['HUBSECRET', 43, 44],
          ]),
        )
      ).status,
    ).toBe(200);
    // A company_id in a carrier's form is dropped by the schema: its check sees only its own (empty) set.
    const sneaky = await upload(b.token, 'company', { company_id: a.id, dry_run: 1 }, hubFile([['HUBMI', 1, 2]]));
    expect(sneaky.status).toBe(200);
    expect(sneaky.body.data.summary).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 0 });
    expect(JSON.stringify(sneaky.body)).not.toMatch(/41|HUBSECRET/);
    const own = await upload(b.token, 'company', { dry_run: 1 }, hubFile([['HUBMI', 1, 2]]));
    expect(own.body.data.summary).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 0 });
    expect(JSON.stringify(own.body)).not.toMatch(/41|HUBSECRET/);
    // The demo carrier's check never counts A's rows either.
    const demo = await upload(carrier, 'company', { dry_run: 1 }, hubFile([['HUBSECRET', 1, 2]]));
    expect(demo.body.data.changes.filter((ch: any) => ch.before?.code === 'HUBSECRET')).toEqual([]);
  });

  it('checks a rate sheet against the newest version of its category, storing no sheet and no file', async () => {
    const c = await createCarrier(p(), 'Listini Cargo');
    const head = EXPRESS_RATE_ROWS.columns.map((col) => col.name);
    const row = (province: string, type: number, p150: number | string) => ['EXP', 'Z1', 'IT', '', 'HUBMI', province, p150, 52, 68, 75, 96, 1, type];
    const fields = { zone: 'NAT', rate_type: 'EXP', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31' };
    const sheet = (rows: unknown[][]) => ({ field: 'rate_sheet', name: 'listino.xlsx', data: xlsx([head, ...(rows as any)]) });
    const store = (token: string, ns: 'admin' | 'company', extra: Record<string, string | number>, file: ReturnType<typeof sheet>, lang?: string) =>
      p().api('POST', `/${ns}/rate_sheet/store`, { token, lang, payload: form({ ...fields, ...extra }, file) });

    const v1 = await store(c.token, 'company', {}, sheet([row('MI', 1, 38), row('RM', 1, 56)]));
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    const sheetsBefore = await p().db.db.selectFrom('rate_sheets').select('id').where('company_id', '=', c.id).execute();
    const files = await filesNow();

    const check = await store(
      c.token,
      'company',
      { dry_run: 1, category_id: v1.body.data.category_id },
      sheet([row('MI', 1, 40), row('RM', 1, 56), row('TO', 2, 50)]),
    );
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.data.summary).toEqual({ added: 1, changed: 1, removed: 0, unchanged: 1 });
    expect(check.body.data.changes[0]).toMatchObject({ key: { province: 'MI', type_id: 1 }, before: { p150: 38 }, after: { p150: 40 } });
    expect(check.body.data.changes[1]).toMatchObject({ key: { province: 'TO', type_id: 2 }, before: null });
    // No category: a new one would be made, every row is added.
    const fresh = await store(admin, 'admin', { company_id: c.id, dry_run: 1 }, sheet([row('MI', 1, 40)]));
    expect(fresh.body.data.summary).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 0 });
    expect(await p().db.db.selectFrom('rate_sheets').select('id').where('company_id', '=', c.id).execute()).toEqual(sheetsBefore);
    expect(await filesNow()).toEqual(files);

    const bad = await store(c.token, 'company', { dry_run: 1 }, sheet([row('MI', 1, 'tanti')]), 'fr');
    expect(bad.body.data.errors).toEqual([{ row: 2, column: 'p150', message: expect.stringMatching(/^ligne 2, colonne p150 : .*tanti/) }]);
    const refused = await store(c.token, 'company', {}, sheet([row('MI', 1, 'tanti')]), 'fr');
    expect(refused.status).toBe(422);
    expect(refused.body.data.errors).toEqual(bad.body.data.errors);
    expect(await p().db.db.selectFrom('rate_sheets').select('id').where('company_id', '=', c.id).execute()).toEqual(sheetsBefore);

    // Another carrier's category is not found, so its rows are never compared.
    const other = await createCarrier(p(), 'Altro Cargo');
    const foreign = await store(other.token, 'company', { dry_run: 1, category_id: v1.body.data.category_id }, sheet([row('MI', 1, 40)]));
    expect(foreign.status).toBe(404);
  });
});
