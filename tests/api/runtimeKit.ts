/**
 * Pieces of the tests that run real server processes (issue 32: tests/api/gracefulStop.test.ts,
 * supervisor.test.ts): plain HTTP calls on fresh connections, an event-stream reader, polling.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

/** One request on a connection of its own (no keep-alive pool: node:cluster hands out connections, not requests). */
export function call(
  port: number,
  pathname: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; agent?: http.Agent | false } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Calls `fn` every `everyMs` until it answers something other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The pid answering /healthz on `port`, or undefined while nothing answers. */
export async function healthPid(port: number): Promise<number | undefined> {
  const r = await call(port, '/healthz').catch(() => undefined);
  return r?.status === 200 ? (r.json().pid as number) : undefined;
}

export interface SseEvent {
  event: string;
  data: string;
}

/** An open event stream: its events so far, the first one matching, and its end. */
export function openEvents(
  port: number,
  pathname: string,
): Promise<{ status: number; events: SseEvent[]; next(event: string, ms?: number): Promise<SseEvent>; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const waiters: Array<{ event: string; done: (e: SseEvent) => void }> = [];
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const e: SseEvent = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('data: ')) e.data += line.slice(6);
          }
          if (!e.data) continue;
          events.push(e);
          for (const w of waiters.filter((x) => x.event === e.event)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.done(e);
          }
        }
      });
      const ended = new Promise<void>((r) => res.on('close', () => r()));
      resolve({
        status: res.statusCode ?? 0,
        events,
        ended,
        next(event, ms = 10_000) {
          const have = events.find((e) => e.event === event);
          if (have) return Promise.resolve(have);
          return new Promise((done, fail) => {
            const t = setTimeout(() => fail(new Error(`no "${event}" event within ${ms} ms; got ${JSON.stringify(events)}`)), ms);
            waiters.push({ event, done: (e) => (clearTimeout(t), done(e)) });
          });
        },
      });
    });
    req.on('error', reject);
  });
}

/** A process whose output (stdout and stderr) is kept, with its exit. */
export interface Watched {
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the output matches (checked at each chunk), or fails after `ms`. */
  waitForOutput(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
}

export function watch(command: string, args: string[], env: NodeJS.ProcessEnv): Watched {
  const proc = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const keep = (b: Buffer) => {
    out += b.toString();
    for (const l of [...listeners]) l();
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    output: () => out,
    exited,
    waitForOutput(re, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(re);
          if (!m) return;
          cleanup();
          resolve(m);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${re} in the output within ${ms} ms:\n${out.slice(-4000)}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}
