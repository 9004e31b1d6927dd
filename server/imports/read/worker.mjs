// The reading pool's thread entry (read/pool.ts). First the thread lowers its own CPU priority (Linux:
// a thread is a task with its own nice value, `/proc/thread-self` names it), so that loading the reader
// too, not only reading, yields to the thread that answers requests; elsewhere, or when refused, it keeps
// the process's priority. Then it loads the reader: the bundle the pool names (`workerData.reader`, when the
// server runs from its own bundle, scripts/buildServer.mjs), else read/worker.ts through tsx's own loader,
// whatever started the process (the tests, a script, SERVER_FROM_SOURCE=1).
import fs from 'node:fs';
import os from 'node:os';
import { workerData } from 'node:worker_threads';

try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
} catch {
  // not Linux, or not allowed: the default priority
}

if (typeof workerData?.reader === 'string') await import(workerData.reader);
else await (await import('tsx/esm/api')).tsImport('./worker.ts', import.meta.url);
