import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { checkTarget, type Lookup } from './addresses.js';

export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status, null when none came (timeout, refused connection, refused URL). */
  status: number | null;
  durationMs: number;
  /** Why it failed, in English for the log and the deliveries list; never the secret or the body. */
  error: string | null;
}

/** The Standard Webhooks headers of one message, signed with the endpoint's secret by the standardwebhooks package. */
export function signedHeaders(secret: string, eventId: string, body: string, at = new Date()) {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}

/**
 * One attempt: resolve and check the URL again (lib/webhooks/addresses.ts), connect to the checked address
 * (the `lookup` given to the socket answers it, so the host name is not resolved a second time), POST the
 * signed body, wait at most `timeoutMs` for the answer. A 2xx is success; anything else, a redirect
 * included (never followed), is a failure to retry.
 */
export async function sendOnce(opts: {
  url: string;
  secret: string;
  eventId: string;
  body: string;
  timeoutMs: number;
  production: boolean;
  lookup?: Lookup;
  /** Aborts the attempt (the server is stopping): the request is cut and the result says `aborted`, status null. */
  signal?: AbortSignal;
}): Promise<SendResult> {
  const started = Date.now();
  const target = await checkTarget(opts.url, opts.production, opts.lookup);
  if ('refused' in target) return { ok: false, status: null, durationMs: Date.now() - started, error: `refused: ${target.refused.replace('webhooks.', '')}` };
  const { url, addresses } = target;
  const pinned = addresses[0];
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: typeof addresses) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const headers = {
    ...signedHeaders(opts.secret, opts.eventId, opts.body),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(opts.body)),
    'user-agent': 'freight-portal-webhooks/1',
  };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Date.now() - started });
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'POST', headers, lookup, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      // the answer's body is read and dropped (at most 64 kB), so the connection ends cleanly
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > 65_536) res.destroy();
      });
      const finish = () => done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    const timer = setTimeout(() => {
      done({ ok: false, status: null, error: `timeout after ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({ ok: false, status: null, error: err.code ?? err.message }));
    const abort = () => {
      done({ ok: false, status: null, error: 'aborted' });
      req.destroy();
    };
    if (opts.signal?.aborted) return abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    req.on('close', () => opts.signal?.removeEventListener('abort', abort));
    req.end(opts.body);
  });
}
