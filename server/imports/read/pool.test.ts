// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { tariffTable } from '../../../model/tariffs.js';
import { xlsxOf } from '../../../tests/fixtures/hostileSheets.js';
import { ApiError } from '../../lib/errors.js';
import { ImportError } from '../errors.js';
import { ReadPool, type ReadPoolOptions } from './pool.js';

/**
 * The reading pool (issue 31): reads run in threads with a heap cap and a time limit, a passed limit
 * ends the thread and refuses the file (413) while the pool goes on; at most `perTenant` files of one
 * company at once; a full queue answers 429 with Retry-After.
 */

const spec = tariffTable('postal_surcharges')!;
const HEAD = '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const header =
  '<row r="1">' +
  ['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent']
    .map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${h}</t></is></c>`)
    .join('') +
  '</row>';
const good = xlsxOf({
  head:
    HEAD +
    header +
    '<row><c t="inlineStr"><is><t>IT</t></is></c><c t="inlineStr"><is><t>20121</t></is></c><c t="inlineStr"><is><t>ztl</t></is></c><c/><c><v>15</v></c></row>',
  tail: '</sheetData></worksheet>',
});
/** Rows a thread needs a while (and memory) to read: distinct postal codes, each its own string. */
const big = (rows: number) =>
  xlsxOf({
    head: HEAD + header,
    tail:
      Array.from(
        { length: rows },
        (_, i) =>
          `<row><c t="inlineStr"><is><t>IT</t></is></c><c t="inlineStr"><is><t>${String(10000 + (i % 89999)).padStart(5, '0')}${i}</t></is></c><c t="inlineStr"><is><t>remote</t></is></c><c/><c><v>${i}</v></c></row>`,
      ).join('') + '</sheetData></worksheet>',
  });
const job = (data: Buffer) => ({ data, fileName: 'x.xlsx', spec, ctx: {} });

let pool: ReadPool | undefined;
const make = (o: Partial<ReadPoolOptions>) =>
  (pool = new ReadPool({ size: 1, heapMb: 256, timeMs: 30_000, queue: 4, perTenant: 2, idleMs: 30_000, collectMb: 48, ...o }));
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

async function settled<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; err: unknown }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    return { ok: false, err };
  }
}

describe('the reading pool', () => {
  it('reads and validates in a thread: rows back, refusals back as ImportErrors', async () => {
    const p = make({});
    expect(await p.read(1, job(good))).toEqual([{ country: 'IT', postal_code: '20121', kind: 'ztl', flow: null, fixed: 1500, percent: null }]);
    const refused = await settled(p.read(1, { ...job(Buffer.from('%PDF-1.4')), fileName: 'x.xlsx' }));
    expect(refused.ok || refused.err).toMatchObject({ status: 422, key: 'import.notSpreadsheet' });
    expect(p.stats).toMatchObject({ threads: 1, running: 0, queued: 0, completed: 1 });
  });

  it('ends a thread past its time limit (413), and reads the next file in a fresh one', { timeout: 30_000 }, async () => {
    const p = make({ timeMs: 150 });
    const r = await settled(p.read(1, job(big(60_000))));
    expect(r.ok || r.err).toBeInstanceOf(ImportError);
    expect(r.ok || r.err).toMatchObject({ status: 413, key: 'import.tooComplex' });
    expect(p.stats.killed).toBe(1);
    p.options.timeMs = 30_000;
    expect(await p.read(1, job(good))).toHaveLength(1);
  });

  it('ends a thread past its heap cap (413), and goes on', { timeout: 60_000 }, async () => {
    const p = make({ heapMb: 32 });
    const r = await settled(p.read(1, job(big(120_000))));
    expect(r.ok || r.err).toMatchObject({ status: 413, key: 'import.tooComplex' });
    expect(p.stats.killed).toBe(1);
    expect(await p.read(1, job(good))).toHaveLength(1);
  });

  it('reads at most perTenant files of one company at once: another company goes first', { timeout: 30_000 }, async () => {
    const p = make({ size: 2, perTenant: 1, queue: 8 });
    const a1 = p.read('A', job(big(20_000)));
    const a2 = p.read('A', job(good));
    const b1 = p.read('B', job(good));
    // A's second file waits for its first; B's, sent after it, takes the second thread at once.
    expect(p.stats).toMatchObject({ running: 2, queued: 1 });
    await b1;
    expect(p.stats.completed).toBeGreaterThanOrEqual(1);
    await Promise.all([a1, a2]);
    expect(p.stats).toMatchObject({ running: 0, queued: 0, completed: 3 });
  });

  it('answers 429 with Retry-After when the queue is full, or a company already has its files waiting', { timeout: 30_000 }, async () => {
    const p = make({ size: 1, perTenant: 2, queue: 2 });
    const running = [p.read('A', job(big(20_000))), p.read('A', job(good)), p.read('A', job(good))];
    const third = await settled(p.read('A', job(good)));
    expect(third.ok || third.err).toBeInstanceOf(ApiError);
    expect(third.ok || third.err).toMatchObject({ statusCode: 429, key: 'import.busy' });
    expect(Number((third as { err: ApiError }).err.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(p.stats.refusedBusy).toBe(1);
    await Promise.all(running);
    expect(await p.read('A', job(good))).toHaveLength(1);
  });
});
