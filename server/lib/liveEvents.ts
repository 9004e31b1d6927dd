import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { DB } from '../db/types.js';
import type { Kind } from '../../model/roles.js';

/**
 * Live events (issue 24, docs/live-events.md): what the stream `GET /{ns}/events` sends. A writer calls
 * `publishLive(db, event)` after a write that committed on its own, or `emit(event)` inside
 * `liveTransaction(db, fn)`; each event becomes a row of `live_events` (so a reconnecting tab can be
 * replayed what it missed) and reaches every process's open streams:
 * - PostgreSQL: `pg_notify` in the same statement as the insert, in the writer's transaction; PostgreSQL
 *   delivers it at commit (never for a rollback) to each process's one listening connection.
 * - SQLite (one process): the row is inserted in the transaction, and the event goes to the in-memory bus
 *   after the commit.
 * Session changes (a sign-out, an admin ending sessions, a user or company deactivated) travel the same way
 * without a row: the streams they may concern look their session up again and close when it is gone.
 */

/** Who may see an event: every admin, the users of a company of the given kinds, or named users. */
export interface Audience {
  admins?: boolean;
  companies?: Array<{ id: number; kinds: Kind[] }>;
  users?: number[];
}

export type LiveType = 'chat.message' | 'chat.read' | 'ticket.changed' | 'request.created' | 'request.status' | 'request.changed' | 'notifications.count';

export interface LiveEvent {
  type: LiveType;
  /** Ids only (the tab asks the routes for what they show): e.g. `{chat_id, message_id}`. */
  data: Record<string, number | string | null>;
  audience: Audience;
}

/** An event as stored and delivered: with its id, which orders the events of a deployment. */
export interface StoredEvent extends LiveEvent {
  id: number;
}

/** Which sessions to look up again (their user, their company, or one session). */
export interface SessionChange {
  users?: number[];
  companies?: number[];
  tokens?: number[];
}

/** The reader of an event: the stream's user. */
export interface Viewer {
  id: number;
  company_id: number;
  kind: Kind;
}

export function maySee(v: Viewer, a: Audience): boolean {
  if (a.admins && v.kind === 'admin') return true;
  if (a.users?.includes(v.id)) return true;
  return !!a.companies?.some((c) => c.id === v.company_id && c.kinds.includes(v.kind));
}

export function concerns(v: Viewer & { token_id: number }, c: SessionChange): boolean {
  return !!(c.users?.includes(v.id) || c.companies?.includes(v.company_id) || c.tokens?.includes(v.token_id));
}

/** How long rows stay in `live_events` (a tab offline longer gets `reset` and reloads what it shows). */
export const RETENTION_MS = 10 * 60_000;
/** A process removes old rows at most this often, and only while events are flowing (idle means no queries). */
const PURGE_EVERY_MS = 60_000;

/** Why the server ends a stream: `closing`, the process is stopping (the stream's last event says so, issue 32). */
export type EndReason = 'closing';

type Listener = { event(e: StoredEvent): void; sessions(c: SessionChange): void; heartbeat(): void; reset(): void; end(why?: EndReason): void };

/** A comment line on every stream this often (proxies close silent connections; the stream checks its session's expiry then). */
export const HEARTBEAT_MS = 20_000;

/** A process's side of the bus: the open streams of one app, fed by the in-memory bus or the listening connection. */
export class LiveHub {
  readonly listeners = new Set<Listener>();
  private lastPurge = 0;
  private closed = false;
  private pgClient: import('pg').Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private beat: NodeJS.Timeout | null = null;

  constructor(
    readonly db: Db,
    readonly dialect: 'sqlite' | 'postgres',
    private readonly databaseUrl: string | undefined,
    private readonly log: { warn(o: object, m: string): void; error(o: object, m: string): void },
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  /** Adds a stream; the heartbeat runs while there is one (it writes, it never queries). */
  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    if (!this.beat && !this.closed) {
      this.beat = setInterval(() => {
        for (const s of this.listeners) s.heartbeat();
      }, this.heartbeatMs);
      this.beat.unref();
    }
    return () => {
      this.listeners.delete(l);
      if (!this.listeners.size && this.beat) {
        clearInterval(this.beat);
        this.beat = null;
      }
    };
  }

  /** Ends every open stream (the app is closing); with a reason, each gets it as its last event first. */
  endStreams(why?: EndReason) {
    for (const l of [...this.listeners]) l.end(why);
  }

  dispatch(e: StoredEvent) {
    for (const l of this.listeners) l.event(e);
    this.maybePurge();
  }

  sessionsChanged(c: SessionChange) {
    for (const l of this.listeners) l.sessions(c);
  }

  /** Removes rows older than the retention, at most once a minute, only when an event passes. */
  private maybePurge() {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS || this.closed) return;
    this.lastPurge = now;
    const cutoff = new Date(now - RETENTION_MS).toISOString();
    this.db
      .deleteFrom('live_events')
      .where('created_at', '<', cutoff)
      .execute()
      .catch((err) => this.log.warn({ err }, 'live events: old rows not removed'));
  }

  /** PostgreSQL: one connection of this process listens on the schema's channel; it reconnects after a failure. */
  async start() {
    if (this.dialect !== 'postgres' || !this.databaseUrl) return;
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'freight-portal-live' });
    client.on('error', () => {
      /* answered by 'end' below */
    });
    client.on('end', () => {
      if (this.pgClient !== client || this.closed) return;
      this.pgClient = null;
      this.log.warn({}, 'live events: the listening connection ended; reconnecting');
      this.retry = setTimeout(() => {
        this.retry = null;
        void this.start()
          .then(() => {
            // Events may have passed meanwhile: every tab reloads what it shows.
            for (const l of this.listeners) l.reset();
          })
          .catch((err) => this.log.error({ err }, 'live events: cannot listen'));
      }, 1000);
      this.retry.unref();
    });
    client.on('notification', (n) => {
      if (!n.payload) return;
      try {
        const msg = JSON.parse(n.payload) as { sessions?: SessionChange } & StoredEvent;
        if (msg.sessions) this.sessionsChanged(msg.sessions);
        else this.dispatch({ id: Number(msg.id), type: msg.type, data: msg.data, audience: msg.audience });
      } catch (err) {
        this.log.warn({ err }, 'live events: unreadable notification');
      }
    });
    await client.connect();
    const schema = (await client.query<{ s: string }>('select current_schema() as s')).rows[0].s;
    await client.query(`LISTEN "${channelOf(schema).replace(/"/g, '""')}"`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.pgClient = client;
  }

  async close() {
    this.endStreams();
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.beat) clearInterval(this.beat);
    const c = this.pgClient;
    this.pgClient = null;
    this.listeners.clear();
    hubs.delete(this.db);
    if (c) await c.end().catch(() => {});
  }
}

const channelOf = (schema: string) => `portal_live_${schema}`;
const hubs = new WeakMap<object, LiveHub>();

/** The hub of an app's database (app.ts makes it); publishing on a database without one (a script) only stores. */
export function registerHub(hub: LiveHub) {
  hubs.set(hub.db, hub);
}

const isPg = (db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Inserts the row and, on PostgreSQL, notifies in the same statement (delivered at commit). */
async function store(db: Kysely<DB>, e: LiveEvent): Promise<StoredEvent> {
  const now = new Date().toISOString();
  const data = JSON.stringify(e.data);
  const audience = JSON.stringify(e.audience);
  if (isPg(db)) {
    const r = await sql<{ id: number }>`
      with e as (insert into live_events (type, data, audience, created_at) values (${e.type}, ${data}, ${audience}, ${now}) returning id)
      select e.id, pg_notify('portal_live_' || current_schema(), json_build_object('id', e.id, 'type', ${e.type}::text, 'data', ${data}::json, 'audience', ${audience}::json)::text) from e`.execute(
      db,
    );
    return { ...e, id: Number(r.rows[0].id) };
  }
  const row = await db.insertInto('live_events').values({ type: e.type, data, audience, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return { ...e, id: Number(row.id) };
}

/** Publishes an event whose change has committed (or was a single statement): stored, then delivered. */
export async function publishLive(db: Db, e: LiveEvent): Promise<void> {
  const stored = await store(db, e);
  if (!isPg(db)) hubs.get(db)?.dispatch(stored);
}

/**
 * A transaction whose events go out only if it commits: `emit` stores each in the transaction (PostgreSQL
 * notifies at commit); on SQLite the in-memory bus gets them after the commit.
 */
export async function liveTransaction<T>(db: Db, fn: (trx: Transaction<DB>, emit: (e: LiveEvent) => Promise<void>) => Promise<T>): Promise<T> {
  const pending: StoredEvent[] = [];
  const result = await db.transaction().execute((trx) => fn(trx, async (e) => void pending.push(await store(trx, e))));
  if (!isPg(db)) for (const e of pending) hubs.get(db)?.dispatch(e);
  return result;
}

/** Tells every process's streams that these sessions may have ended (after the change committed). */
export async function sessionsChanged(db: Db, c: SessionChange): Promise<void> {
  if (isPg(db)) {
    await sql`select pg_notify('portal_live_' || current_schema(), ${JSON.stringify({ sessions: c })})`.execute(db);
  } else {
    hubs.get(db)?.sessionsChanged(c);
  }
}

/** The replay after `lastId`: the rows after it, or null when it is unknown or removed (the tab reloads everything). */
export async function eventsAfter(db: Db, lastId: number, max = 1000): Promise<StoredEvent[] | null> {
  const rows = await db
    .selectFrom('live_events')
    .select(['id', 'type', 'data', 'audience'])
    .where('id', '>=', lastId)
    .orderBy('id')
    .limit(max + 2)
    .execute();
  if (!rows.length || Number(rows[0].id) !== lastId || rows.length > max + 1) return null;
  return rows.slice(1).map((r) => ({ id: Number(r.id), type: r.type as LiveType, data: JSON.parse(r.data), audience: JSON.parse(r.audience) }));
}

/** Who sees a ticket's messages and changes: its end-user company's users, and its carrier's carrier and support users. */
export const ticketAudience = (t: { enduser_company_id: number; carrier_company_id: number }): Audience => ({
  companies: [
    { id: t.enduser_company_id, kinds: ['enduser'] },
    { id: t.carrier_company_id, kinds: ['carrier', 'support'] },
  ],
});

/** Who sees a transport request: admins, its carrier's carrier users, its end-user company's users. */
export const requestAudience = (r: { carrier_id: number; enduser_company_id: number | null }): Audience => ({
  admins: true,
  companies: [{ id: r.carrier_id, kinds: ['carrier'] }, ...(r.enduser_company_id ? [{ id: r.enduser_company_id, kinds: ['enduser' as Kind] }] : [])],
});
