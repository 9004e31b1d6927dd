import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { tokensRepo } from '../repositories/tokens.js';
import { concerns, eventsAfter, maySee, type EndReason, type LiveHub, type StoredEvent } from './liveEvents.js';

/**
 * The live stream's two halves (docs/live-events.md): the stream ticket and the stream itself.
 *
 * EventSource sends no headers, and the session token must never be in a URL (proxies and servers log
 * URLs). So a tab first asks `POST /{ns}/events/ticket` (API password and bearer in the headers, as every
 * call) for a ticket: signed with a key derived from the API password (every process of a deployment
 * checks it), naming the session, valid 30 s and once per process. `GET /{ns}/events?ticket=…` redeems it.
 */
export const TICKET_TTL_MS = 30_000;

export interface TicketClaims {
  /** The session (auth_tokens.id) and its user. */
  t: number;
  u: number;
  /** Expiry (epoch ms) and a nonce: a ticket opens one stream. */
  e: number;
  n: string;
}

export function ticketKeeper(apiPassword: string) {
  const key = crypto.createHash('sha256').update(`live-events-ticket\u0000${apiPassword}`).digest();
  const sign = (body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url');
  const used = new Map<string, number>();
  return {
    issue(tokenId: number, userId: number): { ticket: string; expiresIn: number } {
      const claims: TicketClaims = { t: tokenId, u: userId, e: Date.now() + TICKET_TTL_MS, n: crypto.randomBytes(12).toString('base64url') };
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return { ticket: `${body}.${sign(body)}`, expiresIn: TICKET_TTL_MS / 1000 };
    },
    /** The claims of a genuine, unexpired, unused ticket (and marks it used), or null. */
    redeem(ticket: string): TicketClaims | null {
      const [body, mac] = ticket.split('.');
      if (!body || !mac || ticket.split('.').length !== 2) return null;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(mac);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      let claims: TicketClaims;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TicketClaims;
      } catch {
        return null;
      }
      const now = Date.now();
      for (const [n, exp] of used) if (exp < now) used.delete(n);
      if (!(claims.e > now) || used.has(claims.n)) return null;
      used.set(claims.n, claims.e);
      return claims;
    },
  };
}

/** An event as the stream writes it, formatted once for all the streams it goes to. */
const frames = new WeakMap<StoredEvent, string>();
function frameOf(e: StoredEvent): string {
  let f = frames.get(e);
  if (!f) {
    f = `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
    frames.set(e, f);
  }
  return f;
}

export interface StreamSession {
  id: number;
  company_id: number;
  kind: import('../../model/roles.js').Kind;
  token_id: number;
  expires_at: string;
}

/** Writes the stream: replay after `lastId`, then live events the viewer may see, heartbeats, and the end of the session. */
export async function openStream(hub: LiveHub, db: Db, req: FastifyRequest, reply: FastifyReply, viewer: StreamSession, lastId: number | null) {
  const tokens = tokensRepo(db);
  const expires = Date.parse(viewer.expires_at);
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-store, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  // The tab reconnects by itself with a new ticket (src/live): the browser's own retry would reuse a spent one.
  raw.write(`retry: 2000\n: open\n\n`);

  let closed = false;
  let lastSent = lastId ?? 0;
  let buffer: StoredEvent[] | null = [];
  let checking = false;

  // `ended`: the session is over (the tab signs in again); `closing`: this server process is stopping (issue 32),
  // the tab reconnects as after any drop (with its last event id, to another process or this one restarted).
  const end = (why?: 'ended' | EndReason) => {
    if (closed) return;
    closed = true;
    unsubscribe();
    if (why && !raw.destroyed) raw.write(`event: ${why}\ndata: {}\n\n`);
    raw.end();
  };
  const alive = () => {
    if (Date.now() >= expires) end('ended');
    return !closed;
  };
  const send = (e: StoredEvent) => {
    if (e.id <= lastSent || !maySee(viewer, e.audience)) return;
    lastSent = e.id;
    raw.write(frameOf(e));
  };
  const unsubscribe = hub.subscribe({
    event(e) {
      if (!alive()) return;
      if (buffer) buffer.push(e);
      else send(e);
    },
    sessions(c) {
      if (closed || checking || !concerns(viewer, c)) return;
      checking = true;
      tokens
        .sessionById(viewer.token_id)
        .then((s) => {
          // A session that now belongs to another kind or company is ended too: the tab signs in again.
          if (!s || s.company_id !== viewer.company_id || s.id !== viewer.id) end('ended');
        })
        .catch((err) => req.log.warn({ err }, 'live events: session not checked'))
        .finally(() => (checking = false));
    },
    heartbeat() {
      if (alive()) raw.write(`: hb\n\n`);
    },
    reset() {
      if (alive()) raw.write(`event: reset\ndata: {}\n\n`);
    },
    end: (why) => end(why),
  });
  raw.on('close', () => end());

  if (lastId !== null) {
    try {
      const missed = await eventsAfter(db, lastId);
      if (!missed) {
        if (!closed) raw.write(`event: reset\ndata: {}\n\n`);
      } else for (const e of missed) if (!closed) send(e);
    } catch (err) {
      req.log.warn({ err }, 'live events: replay failed');
      if (!closed) raw.write(`event: reset\ndata: {}\n\n`);
    }
  }
  const held = buffer;
  buffer = null;
  for (const e of held) if (!closed) send(e);
}
