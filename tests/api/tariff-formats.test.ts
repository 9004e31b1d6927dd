import path from 'node:path';
import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { beforeAll, expect, it } from 'vitest';
import { STANDARD_RATE_ROWS } from '../../model/tariffs.js';
import { DEMO, describeEachDb } from './helpers.js';
import { filesState } from './fileHelpers.js';
import { createCarrier, download, form, xlsx, zipOf } from './tariffs.helpers.js';

/** An .ods (OpenDocument, as LibreOffice saves it) with the given rows. */
function ods(rows: Array<Array<string | number | null>>): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'data');
  return XLSX.write(wb, { type: 'buffer', bookType: 'ods' }) as Buffer;
}

const HUB = [
  ['code', 'silver', 'gold'],
  ['HUBMI', 5, 9.25],
  ['HUBRM', 1234.5, 11],
  ['HUBNA', 7.2, 0.5],
];
/** The same hub costs in each format the portal reads. */
const HUB_FILES: Array<[string, Buffer]> = [
  ['hub.xlsx', xlsx(HUB)],
  ['hub.ods', ods(HUB)],
  ['hub.csv', Buffer.from('code,silver,gold\nHUBMI,5,9.25\nHUBRM,1234.50,11\nHUBNA,7.2,0.50\n')],
  ['hub-it.csv', Buffer.from('\ufeffcode;silver;gold\r\nHUBMI;5;9,25\r\nHUBRM;1.234,50;11\r\nHUBNA;7,2;0,50\r\n')],
];
const HUB_STORED = [
  { code: 'HUBMI', silver: 500, gold: 925 },
  { code: 'HUBNA', silver: 720, gold: 50 },
  { code: 'HUBRM', silver: 123450, gold: 1100 },
];

const STD_HEAD = STANDARD_RATE_ROWS.columns.map((c) => c.name);
const stdRow = (v: Record<string, string | number | null>) => STD_HEAD.map((h) => v[h] ?? null);
const STD: Array<Array<string | number | null>> = [
  STD_HEAD,
  stdRow({ country: 'IT', zone_code: 'MI', weight_from: 0, weight_to: 0.5, price: 10.5, unit: 'S', leadtime: 1 }),
  stdRow({ country: 'IT', zone_code: 'MI', weight_from: 0.5, weight_to: 100, price: 1234.25, unit: 'Q', minimum: 3, leadtime: 2, rate_code: 'R1' }),
];
const csvOf = (rows: Array<Array<string | number | null>>, sep: ',' | ';') =>
  rows.map((r) => r.map((v) => (v === null ? '' : sep === ';' ? String(v).replace('.', ',') : String(v))).join(sep)).join('\n');

describeEachDb('tariff file formats', (p) => {
  let admin: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
  });
  const upload = (token: string, file: { name: string; data: Buffer }, companyId: number, lang?: string) =>
    p().api('POST', '/admin/express_hub_costs/store', { token, lang, payload: form({ company_id: companyId }, { field: 'hub_costs', ...file }) });
  const stored = (companyId: number) =>
    (p().db.db as any).selectFrom('express_hub_costs').select(['code', 'silver', 'gold']).where('company_id', '=', companyId).orderBy('code').execute();

  it('stores the same tariff rows from .xlsx, .ods, a comma/point CSV and a semicolon/comma CSV with BOM', async () => {
    for (const [name, data] of HUB_FILES) {
      const c = await createCarrier(p(), `Formati ${name}`);
      const res = await upload(admin, { name, data }, c.id);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data).toMatchObject({ count: 3 });
      expect((await stored(c.id)).map((r: any) => ({ ...r, silver: Number(r.silver), gold: Number(r.gold) }))).toEqual(HUB_STORED);
    }
  });

  it('creates a rate sheet from an .ods and a CSV with the same rows, and keeps the original under its format', async () => {
    const c = await createCarrier(p(), 'Formati Listini');
    const fields = { zone: 'NAT', rate_type: 'STD', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31', is_standard: 0 };
    const seen: unknown[] = [];
    for (const [name, data, mime] of [
      ['std.xlsx', xlsx(STD), 'spreadsheetml'],
      ['std.ods', ods(STD), 'opendocument.spreadsheet'],
      ['std.csv', Buffer.from('\ufeff' + csvOf(STD, ';')), 'text/csv'],
      ['std2.csv', Buffer.from(csvOf(STD, ',')), 'text/csv'],
    ] as const) {
      const res = await p().api('POST', '/company/rate_sheet/store', { token: c.token, payload: form(fields, { field: 'rate_sheet', name, data }) });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.file_path).toMatch(new RegExp(`^[a-f0-9]{32}\\${path.extname(name)}$`));
      const rows = await (p().db.db as any)
        .selectFrom('standard_rate_rows')
        .select(STD_HEAD)
        .where('rate_sheet_id', '=', res.body.data.id)
        .orderBy('id')
        .execute();
      seen.push(
        rows.map((r: any) => ({
          ...r,
          price: Number(r.price),
          minimum: r.minimum === null ? null : Number(r.minimum),
          weight_to: String(Number(r.weight_to)),
        })),
      );
      const file = await download(p(), `/company/rate_sheet/download/${res.body.data.id}`, c.token);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toContain(mime);
      expect(Buffer.compare(file.data, data)).toBe(0);
    }
    expect(seen[0]).toHaveLength(2);
    expect(seen[0]).toMatchObject([
      { country: 'IT', zone_code: 'MI', price: 1050, unit: 'S', minimum: null, leadtime: 1, weight_to: '0.5' },
      { price: 123425, unit: 'Q', minimum: 300, rate_code: 'R1' },
    ]);
    for (const s of seen.slice(1)) expect(s).toEqual(seen[0]);
  });

  it('refuses an ambiguous or mixed CSV, a sheet without header row and a wrong extension with a clear message, storing nothing', async () => {
    const c = await createCarrier(p(), 'Formati Errori');
    const cases: Array<[string, Buffer, string, string]> = [
      [
        'amb.csv',
        Buffer.from('code;silver;gold\nHUBMI;1.500;2\n'),
        'Non si capisce il separatore decimale del CSV: «1.500» (riga 2) può essere un decimale o un separatore delle migliaia. Scrivi i decimali con la virgola o il punto, senza separatore delle migliaia.',
        'Cannot tell the CSV\'s decimal mark: "1.500" (row 2) could be a decimal or a thousands separator. Write decimals with a comma or a point and no thousands separator.',
      ],
      [
        'sep.csv',
        Buffer.from('code,silver;gold\nHUBMI,1;2\n'),
        'Non si capisce come il CSV separa le colonne: la riga di intestazione deve usare le virgole o i punti e virgola, non entrambi né nessuno.',
        'Cannot tell how the CSV separates its columns: the header row must use either commas or semicolons, not both and not neither.',
      ],
      [
        'mixed.csv',
        Buffer.from('code;silver;gold\nHUBMI;5;9\nHUBRM,6,11\n'),
        'Il CSV mescola i separatori: l’intestazione usa «;» ma la riga 3 usa «,». Usa un solo separatore.',
        'The CSV mixes separators: the header uses ";" but row 3 uses ",". Use one separator throughout.',
      ],
      [
        'decimals.csv',
        Buffer.from('code;silver;gold\nHUBMI;5,5;9\nHUBRM;6.25;11\n'),
        'Il CSV scrive i numeri sia con il punto sia con la virgola decimale (riga 2 «5,5», riga 3 «6.25»). Usa un solo separatore decimale.',
        'The CSV writes numbers with both a decimal point and a decimal comma (row 2 "5,5", row 3 "6.25"). Use one decimal mark throughout.',
      ],
      [
        'noheader.ods',
        ods([
          ['HUBMI', 5, 9],
          ['HUBRM', 6, 11],
        ]),
        'Il foglio non ha una riga di intestazione: la prima riga deve contenere i nomi delle colonne code, silver, gold.',
        'The sheet has no header row: the first row must hold the column names code, silver, gold.',
      ],
      ['hub.numbers', xlsx(HUB), 'Sono accettati solo file .xlsx, .xls, .ods o .csv.', 'Only .xlsx, .xls, .ods or .csv files are accepted.'],
      [
        'hub.ods',
        xlsx(HUB),
        'Il file si chiama .ods ma il contenuto è di un altro formato: salvalo di nuovo come .ods e riprova.',
        'The file is named .ods but its content is another format: save it again as .ods and retry.',
      ],
    ];
    for (const [name, data, it, en] of cases) {
      const res = await upload(admin, { name, data }, c.id);
      expect(res.status, name).toBe(422);
      expect(res.body.message, name).toBe(it);
      expect(res.body.errors.hub_costs, name).toEqual([it]);
      expect((await upload(admin, { name, data }, c.id, 'en')).body.message, name).toBe(en);
    }
    expect(await stored(c.id)).toEqual([]);
  });

  it('refuses an .ods zip bomb (declared or lying sizes) and a CSV over the size cap, storing nothing and leaving no file', async () => {
    const c = await createCarrier(p(), 'Formati Bombe');
    const big = zlib.deflateRawSync(Buffer.alloc(170 * 1024 * 1024, 0x20));
    const mimetype = { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet'), method: 0 as const, usz: 46 };
    const declared = zipOf([mimetype, { name: 'content.xml', data: big, method: 8, usz: 170 * 1024 * 1024 }]);
    const lying = zipOf([mimetype, { name: 'content.xml', data: big, method: 8, usz: 4096 }]);
    for (const data of [declared, lying]) {
      const t0 = performance.now();
      const res = await upload(admin, { name: 'bomb.ods', data }, c.id);
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('Il file decompresso è troppo grande (limite 160 MB); non è stato letto.');
      expect((await upload(admin, { name: 'bomb.ods', data }, c.id, 'en')).body.message).toBe(
        'The file unpacks to too much data (limit 160 MB); it was not read.',
      );
    }
    const huge = Buffer.from(`code;silver;gold\n${'HUBMI;5;9\n'.repeat(2.2 * 1024 * 1024)}`);
    const res = await upload(admin, { name: 'huge.csv', data: huge }, c.id);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Il file caricato è troppo grande (limite 20 MB).');
    expect((await upload(admin, { name: 'huge.csv', data: huge }, c.id, 'en')).body.message).toBe('The upload is too large (limit 20 MB).');
    expect(await stored(c.id)).toEqual([]);

    const files = () => filesState(p());
    const sheetsBefore = await files();
    const fields = { zone: 'NAT', rate_type: 'STD', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31', is_standard: 0 };
    const sheet = await p().api('POST', '/company/rate_sheet/store', {
      token: c.token,
      payload: form(fields, { field: 'rate_sheet', name: 'bomb.ods', data: lying }),
    });
    expect(sheet.status).toBe(413);
    expect(await files()).toEqual(sheetsBefore);
  });
});
