import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RowsSpec } from '../../../model/tariffs.js';
import { ApiError } from '../../lib/errors.js';
import type { CellContext } from '../cells.js';
import { ImportError } from '../errors.js';
import type { ImportRow } from '../validate.js';
import { requestThreadGauge } from './pace.js';
import { limitError, READ_LIMITS, type ReadLimits } from './types.js';
import type { EncodedRows, ReadAnswer, ReadTask } from './worker.js';

/**
 * The reading pool (issue 31): every spreadsheet an upload carries is read and validated in one of a
 * few worker threads, never on the thread that answers requests, so one carrier's file cannot slow or
 * stop the portal for the others.
 * - Bounded: `size` threads (one per core but one, 1 to 4), each with a heap cap (`resourceLimits`) and a
 *   time limit; a thread passing either is terminated and the upload refused 413 "too large or too
 *   complex". A fresh thread takes its place for the next file.
 * - Fair: at most `perTenant` files of one company are read at once; the next waiting file of another
 *   company goes first. A full queue (`queue` files waiting, or `perTenant` of the same company) answers
 *   429 with Retry-After, the seconds the files ahead of it should take.
 * - Cheap when idle: threads start on the first upload and stop after `idleMs` without work; an idle
 *   thread does not keep the process alive.
 * Nothing is written to disk on any path: the file travels to the thread in memory and back as rows.
 */

export interface ReadPoolOptions {
  /** threads (IMPORT_WORKERS; default one per core but one, which the request thread keeps: 1 to 4) */
  size: number;
  /** heap of one thread, MB (IMPORT_HEAP_MB; default 256) */
  heapMb: number;
  /** time one read may take, ms (IMPORT_TIME_LIMIT_MS; default 30 000) */
  timeMs: number;
  /** files waiting for a thread (IMPORT_QUEUE; default 4 per thread) */
  queue: number;
  /** files of one company read at once, and waiting at once */
  perTenant: number;
  /** an idle thread stops after this long */
  idleMs: number;
  /**
   * a thread whose heap grew past this (MB) is ended once it has answered when no file waits, else it
   * collects its garbage (worker.ts `collect`)
   */
  collectMb: number;
}

const envInt = (name: string, fallback: number, min = 1) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n >= min ? n : fallback;
};

export function poolOptionsFromEnv(): ReadPoolOptions {
  // One per core but one: on 2 cores one reading thread. With two, the quotes' p99 beside hostile uploads
  // rose 2.3–2.9 times on PostgreSQL, with one 1.9–2.0 times (npm run bench:hostile, issue 31).
  const size = envInt('IMPORT_WORKERS', Math.max(1, Math.min(4, os.availableParallelism() - 1)));
  return {
    size,
    heapMb: envInt('IMPORT_HEAP_MB', 256, 32),
    timeMs: envInt('IMPORT_TIME_LIMIT_MS', 30_000, 100),
    queue: envInt('IMPORT_QUEUE', 4 * size, 0),
    perTenant: 2,
    idleMs: 30_000,
    collectMb: 48,
  };
}

/**
 * One file to read: its bytes and name, and either the rows' spec with the reference sets its cells are
 * checked against (the tariffs), or `raw: true` for its cells as they are (read/rawCells.ts: the declared
 * resources' import converts them itself).
 */
export type ReadJob = {
  data: Buffer;
  fileName: string;
  limits?: ReadLimits;
} & ({ spec: RowsSpec; ctx: CellContext } | { raw: true });

interface Pending {
  id: number;
  tenant: string;
  job: ReadJob;
  resolve: (rows: ImportRow[]) => void;
  reject: (err: unknown) => void;
  queuedAt: number;
}

interface Slot {
  worker: Worker;
  task: Pending | null;
  timer?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  /** the thread is being terminated by the pool (time limit, idle, grown large): its exit is expected */
  ending: boolean;
  /** settles when a thread ended for its size is gone */
  gone?: Promise<void>;
}

/** What the pool is doing, for the metrics (issue 32) and the tests. */
export interface ReadPoolStats {
  threads: number;
  running: number;
  queued: number;
  /** reads refused by a thread's heap or time limit, and 429s, since the start */
  killed: number;
  refusedBusy: number;
  completed: number;
  /** the last exception a reader threw that was not a refusal (logged by the caller) */
  lastFailure?: string;
}

/** Defined (true) in the server's bundle only (scripts/buildServer.mjs). */
declare const __SERVER_BUNDLE__: boolean | undefined;

/**
 * A reading thread starts in worker.mjs, which lowers its priority, then loads the reader: from the server's
 * bundle, the reader's own bundle (dist-server/read-worker.mjs, built with it); from the sources, worker.ts
 * through tsx.
 */
const WORKER_URL = new URL('./worker.mjs', import.meta.url);
const READER_BUNDLE = typeof __SERVER_BUNDLE__ === 'boolean' ? new URL('../../../dist-server/read-worker.mjs', import.meta.url).href : null;

export class ReadPool {
  private slots: Slot[] = [];
  private waiting: Pending[] = [];
  private runningByTenant = new Map<string, number>();
  private nextId = 1;
  /** recent read times (ms), for Retry-After */
  private recent: number[] = [];
  private closed = false;
  /** how busy the request thread is, shared with the reading threads (pace.ts) */
  private gauge = requestThreadGauge();
  readonly stats: ReadPoolStats = { threads: 0, running: 0, queued: 0, killed: 0, refusedBusy: 0, completed: 0 };

  constructor(readonly options: ReadPoolOptions = poolOptionsFromEnv()) {}

  /**
   * Reads and validates a file in a thread: the validated rows, or the ImportError the reader or the
   * validation gave (413 for a limit, the thread's heap or time; 422 for content), or ApiError 429 when
   * the queue is full.
   */
  read(tenant: string | number, job: ReadJob): Promise<ImportRow[]> {
    if (this.closed) return Promise.reject(new ApiError(503, 'errors.unavailable'));
    const key = String(tenant);
    const waitingOfTenant = this.waiting.reduce((n, p) => n + (p.tenant === key ? 1 : 0), 0);
    const free = this.slots.some((s) => !s.task) || this.slots.length < this.options.size;
    const canStart = free && (this.runningByTenant.get(key) ?? 0) < this.options.perTenant && this.waiting.length === 0;
    if (!canStart && (this.waiting.length >= this.options.queue || waitingOfTenant >= this.options.perTenant)) {
      this.stats.refusedBusy++;
      const seconds = this.retryAfter();
      const err = new ApiError(429, 'import.busy', { seconds });
      err.headers = { 'Retry-After': String(seconds) };
      return Promise.reject(err);
    }
    return new Promise<ImportRow[]>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, tenant: key, job, resolve, reject, queuedAt: Date.now() });
      this.stats.queued = this.waiting.length;
      this.dispatch();
    });
  }

  /** Seconds until a place is likely free: the files ahead, at the recent read time per thread (1–60). */
  private retryAfter(): number {
    const typical = this.recent.length ? this.recent.reduce((a, b) => a + b, 0) / this.recent.length : 2000;
    const ahead = this.waiting.length + this.stats.running;
    return Math.max(1, Math.min(60, Math.ceil((typical * Math.max(1, ahead)) / this.options.size / 1000)));
  }

  private dispatch() {
    while (this.waiting.length) {
      const i = this.waiting.findIndex((p) => (this.runningByTenant.get(p.tenant) ?? 0) < this.options.perTenant);
      if (i < 0) return;
      let slot = this.slots.find((s) => !s.task && !s.ending);
      if (!slot) {
        if (this.slots.length >= this.options.size) return;
        slot = this.spawn();
      }
      const [task] = this.waiting.splice(i, 1);
      this.stats.queued = this.waiting.length;
      this.start(slot, task);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, {
      execArgv: [],
      workerData: { gauge: this.gauge.shared, collectMb: this.options.collectMb, reader: READER_BUNDLE },
      // An 8 MB young generation: a 100 000-row sheet read with 16 MB took 15 MB more of the process's memory
      // at its peak for 6 % less time (measured beside the request thread, issue 31).
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, task: null, ending: false };
    this.slots.push(slot);
    this.stats.threads = this.slots.length;
    worker.on('message', (answer: ReadAnswer) => this.answered(slot, answer));
    worker.on('error', (err: Error & { code?: string }) => {
      // ERR_WORKER_OUT_OF_MEMORY: the heap cap was reached; anything else is a fault of the thread. Either
      // way the thread is gone: no further read goes to it.
      slot.ending = true;
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (oom && slot.task) this.stats.killed++;
      if (!oom) this.stats.lastFailure = `${err.name}: ${err.message}`;
      this.finish(slot, oom ? limitError('complex', slot.task?.job.limits ?? READ_LIMITS) : new ImportError(422, 'import.unreadable'));
    });
    worker.on('exit', () => {
      slot.ending = true;
      this.finish(slot, limitError('complex', slot.task?.job.limits ?? READ_LIMITS));
      this.slots = this.slots.filter((s) => s !== slot);
      this.stats.threads = this.slots.length;
      this.dispatch();
    });
    return slot;
  }

  private start(slot: Slot, task: Pending) {
    clearTimeout(slot.idle);
    slot.task = task;
    slot.worker.ref();
    this.runningByTenant.set(task.tenant, (this.runningByTenant.get(task.tenant) ?? 0) + 1);
    this.stats.running++;
    this.gauge.watch(true);
    // The bytes are copied once into a buffer of their own and moved to the thread (no second copy).
    const data = new Uint8Array(task.job.data);
    const job = task.job;
    const message: ReadTask = {
      id: task.id,
      data,
      fileName: job.fileName,
      limits: job.limits ?? READ_LIMITS,
      ...('raw' in job ? { raw: true as const } : { spec: job.spec, ctx: job.ctx }),
    };
    slot.timer = setTimeout(() => this.kill(slot), this.options.timeMs);
    slot.worker.postMessage(message, [data.buffer]);
  }

  /** The time limit: the thread is terminated, the read refused as too complex. */
  private kill(slot: Slot) {
    if (!slot.task) return;
    this.stats.killed++;
    slot.ending = true;
    this.finish(slot, limitError('complex', slot.task.job.limits ?? READ_LIMITS));
    void slot.worker.terminate();
  }

  private answered(slot: Slot, answer: ReadAnswer) {
    if (!slot.task || slot.task.id !== answer.id) return;
    // A thread that grew large with no file waiting is ended before its rows are made again here, so its
    // memory is gone before theirs comes (a 100 000-row import's peak: 276 → 238 MB). With files waiting
    // it goes on to the next one and collects its garbage itself (worker.ts): starting a fresh thread
    // compiles the reader again on V8's helper threads, at full priority, beside the requests.
    if ((answer.heapMb ?? 0) > this.options.collectMb && this.waiting.length === 0) {
      slot.ending = true;
      slot.gone = slot.worker.terminate().then(() => undefined);
    }
    if (answer.ok) this.finish(slot, null, answer.rows);
    else if ('error' in answer) {
      const e = answer.error;
      const err = new ImportError(e.status, e.key, e.params, e.rowErrors);
      err.totals = e.totals;
      this.finish(slot, err);
    } else {
      // An exception of the reader's own (a bug, or input it did not foresee): the file is refused as
      // unreadable, never a 500; the cause is kept for the logs.
      this.stats.lastFailure = answer.failure;
      this.finish(slot, new ImportError(422, 'import.unreadable'));
    }
  }

  /** Settles the slot's read (rows or error) and frees the slot for the next one. */
  private finish(slot: Slot, err: unknown, rows?: EncodedRows) {
    const task = slot.task;
    if (!task) return;
    clearTimeout(slot.timer);
    slot.task = null;
    this.stats.running--;
    this.gauge.watch(this.stats.running > 0);
    const n = (this.runningByTenant.get(task.tenant) ?? 1) - 1;
    if (n > 0) this.runningByTenant.set(task.tenant, n);
    else this.runningByTenant.delete(task.tenant);
    this.recent.push(Date.now() - task.queuedAt);
    if (this.recent.length > 20) this.recent.shift();
    if (err) {
      task.reject(err);
    } else {
      this.stats.completed++;
      (slot.gone ?? Promise.resolve()).then(() => decodeRows(rows!)).then(task.resolve, task.reject);
    }
    if (!slot.ending) {
      slot.worker.unref();
      slot.idle = setTimeout(() => {
        slot.ending = true;
        void slot.worker.terminate();
      }, this.options.idleMs);
      slot.idle.unref();
    }
    this.dispatch();
  }

  /** Stops every thread; reads under way and waiting are refused 503 (graceful stop). */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.waiting.splice(0)) p.reject(new ApiError(503, 'errors.unavailable'));
    this.stats.queued = 0;
    await Promise.all(
      this.slots.map((s) => {
        s.ending = true;
        clearTimeout(s.idle);
        return s.worker.terminate();
      }),
    );
  }
}

/** Rows made again from their encoding (worker.ts `encodeRows`), 10 000 at a time between other requests. */
export async function decodeRows(encoded: EncodedRows): Promise<ImportRow[]> {
  const rows: ImportRow[] = new Array(encoded.count);
  for (let start = 0; start < encoded.count; start += 10_000) {
    if (start) await new Promise((r) => setImmediate(r));
    const end = Math.min(encoded.count, start + 10_000);
    for (let i = start; i < end; i++) {
      const row: ImportRow = {};
      for (const c of encoded.columns) row[c.name] = c.values[c.index[i]];
      rows[i] = row;
    }
  }
  return rows;
}

let shared: ReadPool | undefined;

/** The process's pool (options from the environment), created on first use. */
export const sharedReadPool = () => (shared ??= new ReadPool());

/** Reads and validates `job` in the process's pool on behalf of a company (or a script: 'seed'). */
export const readRows = (tenant: string | number, job: ReadJob) => sharedReadPool().read(tenant, job);
