/**
 * The load's HTTP client: node:http with one keep-alive agent per client address. Every simulated
 * client (a visitor, a signed-in user) has its own loopback address (127.0.x.y, all routed to `lo` on
 * Linux), so the server sees distinct callers as in production and the per-address throttles count
 * each one separately. An agent opens at most 6 connections per server, as a browser does per origin;
 * a request that finds them all busy waits for one and is counted as queued.
 */
import http from 'node:http';
import { API_PASSWORD } from './servers.js';

export const SOCKETS_PER_ORIGIN = 6;

export interface Reply {
  status: number;
  body: any;
  error?: string;
}

const agents = new Map<string, http.Agent>();
function agentFor(address: string) {
  let a = agents.get(address);
  if (!a) {
    a = new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN, localAddress: address });
    agents.set(address, a);
  }
  return a;
}

export function closeAgents() {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

export interface CallOptions {
  base: string;
  from: string;
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  json?: unknown;
  multipart?: { payload: Buffer; contentType: string };
  query?: Record<string, string | number | undefined>;
}

/** True when every connection of the caller's agent to that server is busy: the request will wait. */
export function wouldQueue(o: Pick<CallOptions, 'base' | 'from'>) {
  const a = agents.get(o.from);
  if (!a) return false;
  const u = new URL(o.base);
  const busy = Object.entries(a.sockets)
    .filter(([k]) => k.startsWith(`${u.hostname}:${u.port}:`))
    .reduce((n, [, s]) => n + (s?.length ?? 0), 0);
  return busy >= SOCKETS_PER_ORIGIN;
}

/** One request; connection problems come back as status 0 with the error code. */
export function call(o: CallOptions): Promise<Reply> {
  const u = new URL(`${o.base}${o.path}`);
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
  const headers: Record<string, string> = { 'x-api-password': API_PASSWORD, 'accept-language': 'it' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let payload: Buffer | undefined;
  if (o.multipart) {
    payload = o.multipart.payload;
    headers['content-type'] = o.multipart.contentType;
  } else if (o.json !== undefined) {
    payload = Buffer.from(JSON.stringify(o.json));
    headers['content-type'] = 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve) => {
    const req = http.request(u, { method: o.method, headers, agent: agentFor(o.from) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => resolve({ status: 0, body: null, error: (err as NodeJS.ErrnoException).code ?? err.message }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (err) => resolve({ status: 0, body: null, error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end(payload);
  });
}

/** A multipart body as the browser's FormData sends it: lists as `name[]`, files as blobs. */
export async function formData(fields: Record<string, string | string[] | { filename: string; type: string; data: Buffer }[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (!Array.isArray(v)) {
      fd.append(k, v);
      continue;
    }
    for (const item of v) {
      if (typeof item === 'string') fd.append(`${k}[]`, item);
      else fd.append(`${k}[]`, new Blob([new Uint8Array(item.data)], { type: item.type }), item.filename);
    }
  }
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}
