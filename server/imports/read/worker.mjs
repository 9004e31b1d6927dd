// The reading pool's thread entry (read/pool.ts). First the thread lowers its own CPU priority (Linux:
// a thread is a task with its own nice value, `/proc/thread-self` names it), so that loading the reader
// too, not only reading, yields to the thread that answers requests; elsewhere, or when refused, it keeps
// the process's priority. Then, as the server runs from its TypeScript sources, it loads read/worker.ts
// through tsx's own loader, whatever started the process (npm start, the tests, a script).
import fs from 'node:fs';
import os from 'node:os';
import { tsImport } from 'tsx/esm/api';

try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
} catch {
  // not Linux, or not allowed: the default priority
}

await tsImport('./worker.ts', import.meta.url);
