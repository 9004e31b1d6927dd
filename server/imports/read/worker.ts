import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { RowsSpec } from '../../../model/tariffs.js';
import type { CellContext } from '../cells.js';
import { ImportError, type RowError, type RowErrorTotals } from '../errors.js';
import { validateRows, type ImportRow } from '../validate.js';
import { useGauge } from './pace.js';
import { rawRows } from './rawCells.js';
import { readSpreadsheet } from './sheet.js';
import type { ReadLimits } from './types.js';

/**
 * One thread of the reading pool (read/pool.ts): reads a spreadsheet and validates its rows against a
 * spec, off the thread that answers requests. It gets the file's bytes (transferred, not copied), the
 * spec and the reference sets; it answers the validated rows, or the refusal (message key, params,
 * the first listed row errors and their totals). The pool caps its heap and its time.
 */

/** A file to read: validated against a spec (the tariffs), or answered as its raw cells (`raw`: rawCells.ts). */
export type ReadTask = {
  id: number;
  data: Uint8Array;
  fileName: string;
  limits: ReadLimits;
} & ({ spec: RowsSpec; ctx: CellContext } | { raw: true });

export interface SerialisedImportError {
  status: number;
  key: string;
  params: Record<string, unknown>;
  rowErrors: RowError[];
  totals: RowErrorTotals;
}

/**
 * Validated rows as they cross to the request thread: per column the distinct values and, per row, the
 * index of its value (a transferred Uint32Array). A structured clone of 200 000 row objects took the
 * receiving thread ~100 ms in one piece; this crosses in a few milliseconds, a tariff's columns
 * repeating few values, and the rows are made again there a slice at a time (pool.ts `decodeRows`).
 */
export interface EncodedRows {
  count: number;
  columns: Array<{ name: string; values: Array<string | number | null>; index: Uint32Array }>;
}

export function encodeRows(rows: ImportRow[], names: string[]): EncodedRows {
  const columns = names.map((name) => {
    const values: Array<string | number | null> = [];
    const seen = new Map<string | number | null, number>();
    const index = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const v = rows[i][name] ?? null;
      let k = seen.get(v);
      if (k === undefined) {
        k = values.length;
        values.push(v);
        seen.set(v, k);
      }
      index[i] = k;
    }
    return { name, values, index };
  });
  return { count: rows.length, columns };
}

/** Every answer also says how large the thread's heap grew (MB): the pool ends a thread that grew large. */
export type ReadAnswer = { heapMb?: number } & (
  { id: number; ok: true; rows: EncodedRows } | { id: number; ok: false; error: SerialisedImportError } | { id: number; ok: false; failure: string }
);

async function run(task: ReadTask): Promise<ReadAnswer> {
  try {
    const data = Buffer.from(task.data.buffer, task.data.byteOffset, task.data.byteLength);
    const sheet = await readSpreadsheet(data, task.fileName, task.limits);
    if ('raw' in task) {
      const raw = rawRows(sheet);
      return { id: task.id, ok: true, rows: encodeRows(raw.rows, raw.columns) };
    }
    const rows = validateRows(task.spec, sheet, task.ctx, true);
    return {
      id: task.id,
      ok: true,
      rows: encodeRows(
        rows,
        task.spec.columns.map((c) => c.name),
      ),
    };
  } catch (err) {
    if (err instanceof ImportError) {
      return { id: task.id, ok: false, error: { status: err.status, key: err.key, params: err.params, rowErrors: err.rowErrors, totals: err.totals } };
    }
    return { id: task.id, ok: false, failure: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

/**
 * After a read that grew the heap past `collectMb` (workerData; 48 MB: a 100 000-row rate sheet grows it to
 * ~62 MB, a template's check stays under 20), a full collection on this thread gives the memory back while
 * the request thread makes the rows again, rather than at V8's next idea of it: measured on a 100 000-row
 * sheet, the process's peak 178–194 MB without, 177 MB with. Ending the thread instead (and starting a fresh
 * one for the next file) gave the same peak, but each start compiles the reader again on V8's shared helper
 * threads at full priority: the quotes' p99 beside 2.4-million-row files rose 2.5 times instead of 1.8.
 */
let collectMb = 48;
let gcFn: (() => void) | undefined;
function collect() {
  if (!gcFn) {
    v8.setFlagsFromString('--expose-gc');
    gcFn = vm.runInNewContext('gc') as () => void;
  }
  gcFn();
}

if (parentPort) {
  const data = workerData as { gauge?: SharedArrayBuffer; collectMb?: number } | undefined;
  useGauge(data?.gauge);
  collectMb = data?.collectMb ?? collectMb;
  // Its CPU priority was lowered by worker.mjs before this module loaded.
  const port = parentPort;
  port.on('message', (task: ReadTask) => {
    void run(task).then((answer) => {
      answer.heapMb = v8.getHeapStatistics().total_heap_size / (1024 * 1024);
      port.postMessage(answer, answer.ok ? answer.rows.columns.map((c) => c.index.buffer as ArrayBuffer) : []);
      if (answer.heapMb > collectMb) collect();
    });
  });
}
