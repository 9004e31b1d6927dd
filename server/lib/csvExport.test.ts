import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { csvChunks, csvField, guardCsvText, guardText, type ExportColumn } from './listExport.js';
import { looksLikeFormula, readCsvLikeExcel, readCsvStrict } from '../../tests/fixtures/csv.js';

/** Names a customer could type, each trying to become a formula in some reader. */
export const HOSTILE = [
  'x,=1+1',
  'x;=HYPERLINK("http://evil.test","click")',
  'a\t=1+1',
  'tab\t@SUM(1)',
  '"quoted",=2+2',
  'line\n=3+3',
  'cr\r+4+4',
  'crlf\r\n-5+5',
  '=leading',
  '  =spaced',
  'x, =1',
  'x,\t=1',
  'x;;@y',
  '@at',
  '-2+3',
  'plain, comma',
  'semi;colon',
  "O'Brien & Figli",
  'Rossi "Il Veloce"',
];

type Row = { name: string | null; cost: number };
const columns: ExportColumn<Row>[] = [
  { header: { it: 'Nome', en: 'Name', fr: 'Nom' }, kind: 'text', value: (r) => r.name },
  { header: { it: 'Costo', en: 'Cost', fr: 'Coût' }, kind: 'money', value: (r) => r.cost },
];
async function csvOf(lang: 'it' | 'en' | 'fr', rows: Row[]) {
  async function* one() {
    yield rows;
  }
  let out = '';
  for await (const chunk of csvChunks(columns, lang, one())) out += chunk;
  return out;
}
const rows = [...HOSTILE, null, ''].map((name, i) => ({ name, cost: 123456 + i }));

describe('CSV exports (issue 31): quoting and the formula guard hold in every language and for any reader', () => {
  it('quotes every field holding , ; a tab, a quote or a line break, whatever the delimiter', () => {
    for (const s of ['a,b', 'a;b', 'a\tb', 'a"b', 'a\rb', 'a\nb']) expect(csvField(s)).toBe(`"${s.replace(/"/g, '""')}"`);
    expect(csvField('plain')).toBe('plain');
    expect(csvField("O'Brien")).toBe("O'Brien");
  });

  it('guards what follows a separator inside a text, not only its start', () => {
    expect(guardCsvText('x,=1+1')).toBe("x,'=1+1");
    expect(guardCsvText('x;=1')).toBe("x;'=1");
    expect(guardCsvText('x,\t=1')).toBe("x,'\t'=1");
    expect(guardCsvText('x, =1')).toBe("x,' =1");
    expect(guardCsvText('line\r\n@x')).toBe("line\r\n'@x");
    expect(guardCsvText('  =spaced')).toBe("'  =spaced");
    expect(guardCsvText('Milano - Roma, 2026-01-01')).toBe('Milano - Roma, 2026-01-01');
    expect(guardCsvText(guardText('=x'))).toBe("'=x");
  });

  for (const lang of ['it', 'en', 'fr'] as const) {
    it(`${lang}: the file's own reader gets every field back whole; no reader with any delimiter sees a formula`, async () => {
      const text = await csvOf(lang, rows);
      const own = lang === 'en' ? ',' : ';';
      // the file's own delimiter, read to the letter: one row per record, each name whole (with its guard apostrophes)
      const strict = readCsvStrict(text, own);
      expect(strict).toHaveLength(rows.length + 1);
      strict.slice(1).forEach((cells, i) => {
        expect(cells).toHaveLength(2);
        const name = rows[i].name ?? '';
        expect(cells[0]).toBe(guardCsvText(guardText(name)));
        expect(cells[0].replace(/'/g, '')).toBe(name.replace(/'/g, '')); // only apostrophes added
      });
      expect(strict[1][1]).toBe(lang === 'en' ? '1234.56' : '1234,56');
      // any delimiter, read as a spreadsheet does: no cell starts a formula
      for (const delimiter of [',', ';', '\t']) {
        const cells = readCsvLikeExcel(text, delimiter).flat();
        expect(cells.filter(looksLikeFormula)).toEqual([]);
      }
      // and SheetJS, which makes formulas of CSV cells starting with =, reading with either separator
      for (const FS of [',', ';']) {
        const ws = XLSX.read(text, { type: 'string', FS, cellFormula: true }).Sheets.Sheet1;
        const cells = Object.entries(ws).filter(([k]) => !k.startsWith('!'));
        expect(cells.length).toBeGreaterThan(rows.length);
        expect(cells.filter(([, c]) => c.f !== undefined || (c.t === 's' && looksLikeFormula(String(c.v))))).toEqual([]);
      }
    });
  }

  it('the guard is needed: without the inner guard an Italian file read by an English reader carries a formula', () => {
    const unguarded = 'Nome;Costo\r\nx,=1+1;"1234,56"\r\n';
    expect(readCsvLikeExcel(unguarded, ',').flat().filter(looksLikeFormula)).toEqual(['=1+1;"1234']);
  });
});
