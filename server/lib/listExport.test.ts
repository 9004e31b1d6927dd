import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { xlsxOf, type ExportColumn } from './listExport.js';

const columns: ExportColumn<{ n: number }>[] = [{ header: { it: 'Numero', en: 'Number', fr: 'Numéro' }, kind: 'number', value: (r) => r.n }];

describe('xlsxOf', () => {
  it('builds one workbook at a time per process: a second export starts reading only after the first is written', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      log.push('first reads');
      await gate; // the first export is still reading its rows
      yield [{ n: 1 }];
      log.push('first done reading');
    }
    async function* fast() {
      log.push('second reads');
      yield [{ n: 2 }];
    }
    const first = xlsxOf(columns, 'it', slow(), 'a');
    const second = xlsxOf(columns, 'en', fast(), 'b');
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['first reads']);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(log).toEqual(['first reads', 'first done reading', 'second reads']);
    const rows = (buf: Buffer) => XLSX.utils.sheet_to_json(XLSX.read(buf).Sheets[XLSX.read(buf).SheetNames[0]], { header: 1 });
    expect(rows(a)).toEqual([['Numero'], [1]]);
    expect(rows(b)).toEqual([['Number'], [2]]);
  });

  it('a failed export does not block the next one', async () => {
    async function* broken(): AsyncGenerator<{ n: number }[]> {
      yield [];
      throw new Error('database gone');
    }
    await expect(xlsxOf(columns, 'it', broken(), 'x')).rejects.toThrow('database gone');
    async function* one() {
      yield [{ n: 3 }];
    }
    expect((await xlsxOf(columns, 'it', one(), 'y')).subarray(0, 2).toString()).toBe('PK');
  });
});
