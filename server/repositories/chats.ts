import { sql } from 'kysely';
import type { Lang } from '../../model/resource.js';
import type { Db } from '../db/index.js';
import type { ChatSide } from '../db/types.js';
import { conflict, notFound } from '../lib/errors.js';
import { paginate, type ListQuery, type Page } from '../lib/paging.js';
import { nowIso } from '../lib/tokens.js';
import { liveTransaction, ticketAudience } from '../lib/liveEvents.js';

/**
 * Who is looking at the chats: an end-user company (its users share its tickets) or a carrier company
 * (its carrier users and support users share one inbox). Both come from the token, never the body.
 */
/** `lang`: the reader's language, which names the ticket's category (issue 35; Italian, the portal's first, without one). */
export type ChatScope = ({ side: 'enduser'; companyId: number } | { side: 'carrier'; companyId: number }) & { lang?: Lang };

export interface ChatAuthor {
  id: number;
  first_name: string;
  last_name: string;
}

export interface TicketListQuery extends ListQuery {
  status?: 'open' | 'closed';
  q?: string;
  enduser_id?: number;
  /** the tickets about one transport request (the request's detail lists them) */
  transport_request_id?: number;
}

export const otherSide = (side: ChatSide): ChatSide => (side === 'enduser' ? 'carrier' : 'enduser');
const scopeColumn = (s: ChatScope) => (s.side === 'enduser' ? 't.enduser_company_id' : 't.carrier_company_id') as 't.enduser_company_id';
const PREVIEW = 140;
/** At most this many messages per read; the client asks again (with `after` or `before`) for the rest. */
export const MAX_MESSAGES = 200;

/** Tickets with their category, end-user names, closer, last message and the caller's unread count. */
function ticketQuery(db: Db, scope: ChatScope) {
  return db
    .selectFrom('tickets as t')
    .leftJoin('ticket_categories as tc', 'tc.id', 't.ticket_category_id')
    .innerJoin('companies as ec', 'ec.id', 't.enduser_company_id')
    .leftJoin('users as eu', 'eu.id', 't.enduser_user_id')
    .leftJoin('users as cb', 'cb.id', 't.closed_by')
    .where(scopeColumn(scope), '=', scope.companyId)
    .select([
      't.id',
      't.ticket_category_id',
      sql<string | null>`coalesce(nullif(${sql.ref(`tc.${scope.lang ?? 'it'}`)}, ''), tc.name)`.as('category_name'),
      't.subject',
      't.status',
      't.enduser_company_id',
      'ec.legal_name as enduser_company_name',
      't.enduser_user_id',
      'eu.first_name as enduser_first_name',
      'eu.last_name as enduser_last_name',
      't.carrier_company_id',
      't.created_at',
      't.last_message_at',
      't.closed_at',
      't.closed_by',
      'cb.first_name as closed_by_first_name',
      'cb.last_name as closed_by_last_name',
      't.transport_request_id',
    ])
    .select((eb) => [
      eb
        .selectFrom('chat_messages as m')
        .whereRef('m.chat_id', '=', 't.id')
        .orderBy('m.id', 'desc')
        .limit(1)
        .select(sql<string>`substr(m.body, 1, ${sql.lit(PREVIEW)})`.as('p'))
        .as('last_message'),
      eb.selectFrom('chat_messages as m').whereRef('m.chat_id', '=', 't.id').orderBy('m.id', 'desc').limit(1).select('m.sender_side').as('last_sender_side'),
      eb.selectFrom('chat_messages as m').whereRef('m.chat_id', '=', 't.id').orderBy('m.id', 'desc').limit(1).select('m.sender_name').as('last_sender_name'),
      eb
        .selectFrom('chat_messages as m')
        .whereRef('m.chat_id', '=', 't.id')
        .where('m.sender_side', '=', otherSide(scope.side))
        .where('m.read_at', 'is', null)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('unread'),
    ]);
}
type TicketRow = NonNullable<Awaited<ReturnType<ReturnType<typeof ticketQuery>['executeTakeFirst']>>>;

/** Numbers arrive as strings from PostgreSQL counts; the answer carries plain numbers and full names. */
function present(row: TicketRow) {
  const { enduser_first_name, enduser_last_name, closed_by_first_name, closed_by_last_name, ...rest } = row;
  return {
    ...rest,
    chat_id: row.id,
    unread: Number(row.unread ?? 0),
    enduser_user_name: `${enduser_first_name ?? ''} ${enduser_last_name ?? ''}`.trim(),
    closed_by_name: closed_by_first_name ? `${closed_by_first_name} ${closed_by_last_name ?? ''}`.trim() : null,
  };
}
export type TicketView = ReturnType<typeof present>;

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function chatsRepo(db: Db) {
  const repo = {
    async listTickets(scope: ChatScope, q: TicketListQuery): Promise<Page<TicketView>> {
      let qb = ticketQuery(db, scope);
      if (q.status) qb = qb.where('t.status', '=', q.status);
      if (q.enduser_id && scope.side === 'carrier') qb = qb.where('t.enduser_company_id', '=', q.enduser_id);
      if (q.transport_request_id) qb = qb.where('t.transport_request_id', '=', q.transport_request_id);
      const text = q.q?.trim();
      if (text) {
        const pattern = likePattern(text);
        qb = qb.where((eb) =>
          eb.or([sql<boolean>`lower(t.subject) like ${pattern} escape '\\'`, sql<boolean>`lower(ec.legal_name) like ${pattern} escape '\\'`]),
        );
      }
      const page = await paginate(qb, q, {
        sortColumns: { last_message_at: 't.last_message_at', created_at: 't.created_at', subject: 't.subject', status: 't.status', id: 't.id' },
        defaultSort: 'last_message_at',
        defaultOrder: 'desc',
        idColumn: 't.id',
      });
      return { ...page, data: page.data.map(present) };
    },

    /** One ticket in the caller's scope, or undefined (the route answers 404). */
    async findTicket(scope: ChatScope, id: number) {
      return ticketQuery(db, scope).where('t.id', '=', id).executeTakeFirst();
    },

    async ticket(scope: ChatScope, id: number): Promise<TicketView> {
      const row = await repo.findTicket(scope, id);
      if (!row) throw notFound();
      return present(row);
    },

    /**
     * Messages of a chat in id order: those after `after` (incremental polling), those before `before`
     * (older history), or the newest ones. `hasMore` says more exist in the direction asked.
     */
    async messages(chatId: number, opts: { after?: number; before?: number; limit: number }) {
      const base = db
        .selectFrom('chat_messages')
        .select(['id', 'chat_id', 'sender_user_id', 'sender_name', 'sender_side', 'body', 'created_at', 'read_at'])
        .where('chat_id', '=', chatId);
      const take = opts.limit + 1;
      let rows;
      if (opts.after !== undefined) {
        rows = await base.where('id', '>', opts.after).orderBy('id', 'asc').limit(take).execute();
      } else {
        const q = opts.before !== undefined ? base.where('id', '<', opts.before) : base;
        rows = (await q.orderBy('id', 'desc').limit(take).execute()).reverse();
      }
      const hasMore = rows.length > opts.limit;
      if (hasMore) rows = opts.after !== undefined ? rows.slice(0, opts.limit) : rows.slice(1);
      return { rows, hasMore };
    },

    /** Marks the other side's messages up to `upTo` as read by `side`; writes only when there is something to mark. */
    async markRead(chatId: number, side: ChatSide, upTo: number) {
      const pending = await db
        .selectFrom('chat_messages')
        .select('id')
        .where('chat_id', '=', chatId)
        .where('sender_side', '=', otherSide(side))
        .where('read_at', 'is', null)
        .where('id', '<=', upTo)
        .limit(1)
        .executeTakeFirst();
      if (!pending) return;
      // The writer's side sees its read marks move (live event `chat.read`), if this commits.
      await liveTransaction(db, async (trx, emit) => {
        const r = await trx
          .updateTable('chat_messages')
          .set({ read_at: nowIso() })
          .where('chat_id', '=', chatId)
          .where('sender_side', '=', otherSide(side))
          .where('read_at', 'is', null)
          .where('id', '<=', upTo)
          .executeTakeFirst();
        if (!Number(r.numUpdatedRows)) return;
        const ticket = await trx.selectFrom('tickets').select(['enduser_company_id', 'carrier_company_id']).where('id', '=', chatId).executeTakeFirstOrThrow();
        await emit({ type: 'chat.read', data: { chat_id: chatId }, audience: ticketAudience(ticket) });
      });
    },

    /** The highest id of `side`'s messages the other side has read (0 when none): the client's "read" marks. */
    async readUpTo(chatId: number, side: ChatSide): Promise<number> {
      const row = await db
        .selectFrom('chat_messages')
        .select((eb) => eb.fn.max('id').as('m'))
        .where('chat_id', '=', chatId)
        .where('sender_side', '=', side)
        .where('read_at', 'is not', null)
        .executeTakeFirst();
      return Number(row?.m ?? 0);
    },

    /**
     * Adds a message to an open chat of the caller's scope. The conditional update of the ticket takes
     * its row lock first, so the messages of one chat get their ids in commit order (a poller asking
     * `after` its last id never skips one) and a chat closed meanwhile refuses the message (409).
     */
    async send(scope: ChatScope, author: ChatAuthor, chatId: number, body: string) {
      return liveTransaction(db, async (trx, emit) => {
        const now = nowIso();
        const col = scope.side === 'enduser' ? 'enduser_company_id' : 'carrier_company_id';
        const ticket = await trx
          .updateTable('tickets')
          .set({ last_message_at: now })
          .where('id', '=', chatId)
          .where(col, '=', scope.companyId)
          .where('status', '=', 'open')
          .returning(['enduser_company_id', 'carrier_company_id'])
          .executeTakeFirst();
        if (!ticket) {
          const exists = await trx.selectFrom('tickets').select('id').where('id', '=', chatId).where(col, '=', scope.companyId).executeTakeFirst();
          throw exists ? conflict('chat.closedNoMessages') : notFound();
        }
        const message = await trx
          .insertInto('chat_messages')
          .values({
            chat_id: chatId,
            sender_user_id: author.id,
            sender_name: `${author.first_name} ${author.last_name}`.trim(),
            sender_side: scope.side,
            body,
            created_at: now,
            read_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        // Answering means having read what the other side wrote before.
        await trx
          .updateTable('chat_messages')
          .set({ read_at: now })
          .where('chat_id', '=', chatId)
          .where('sender_side', '=', otherSide(scope.side))
          .where('read_at', 'is', null)
          .where('id', '<', message.id)
          .execute();
        // Both sides' streams (the writer's other tabs too); delivered only if this commits.
        await emit({ type: 'chat.message', data: { chat_id: chatId, message_id: Number(message.id) }, audience: ticketAudience(ticket) });
        return message;
      });
    },

    /** Opens a ticket of an end-user company with its first message, in one transaction; `requestId`: the request it is about. */
    async open(author: ChatAuthor, companyId: number, carrierId: number, categoryId: number, subject: string, body: string, requestId: number | null = null) {
      return liveTransaction(db, async (trx, emit) => {
        const now = nowIso();
        const ticket = await trx
          .insertInto('tickets')
          .values({
            ticket_category_id: categoryId,
            subject,
            status: 'open',
            enduser_company_id: companyId,
            enduser_user_id: author.id,
            carrier_company_id: carrierId,
            created_at: now,
            last_message_at: now,
            closed_at: null,
            closed_by: null,
            transport_request_id: requestId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('chat_messages')
          .values({
            chat_id: ticket.id,
            sender_user_id: author.id,
            sender_name: `${author.first_name} ${author.last_name}`.trim(),
            sender_side: 'enduser',
            body,
            created_at: now,
            read_at: null,
          })
          .execute();
        await emit({
          type: 'ticket.changed',
          data: { chat_id: ticket.id, status: 'open' },
          audience: ticketAudience({ enduser_company_id: companyId, carrier_company_id: carrierId }),
        });
        return ticket.id;
      });
    },

    /** Closes an open chat of the carrier's scope in one conditional update: of two closes, one wins, the other gets 409. */
    async close(scope: ChatScope, userId: number, chatId: number) {
      const col = scope.side === 'enduser' ? 'enduser_company_id' : 'carrier_company_id';
      // The close and its live event commit together.
      const closed = await liveTransaction(db, async (trx, emit) => {
        const row = await trx
          .updateTable('tickets')
          .set({ status: 'closed', closed_at: nowIso(), closed_by: userId })
          .where('id', '=', chatId)
          .where(col, '=', scope.companyId)
          .where('status', '=', 'open')
          .returning(['enduser_company_id', 'carrier_company_id'])
          .executeTakeFirst();
        if (row) await emit({ type: 'ticket.changed', data: { chat_id: chatId, status: 'closed' }, audience: ticketAudience(row) });
        return row;
      });
      if (!closed) {
        const exists = await db.selectFrom('tickets').select('id').where('id', '=', chatId).where(col, '=', scope.companyId).executeTakeFirst();
        throw exists ? conflict('chat.alreadyClosed') : notFound();
      }
    },

    /** Unread messages for the caller's side, and in how many chats: the sidebar badge. */
    async unread(scope: ChatScope) {
      const row = await db
        .selectFrom('chat_messages as m')
        .innerJoin('tickets as t', 't.id', 'm.chat_id')
        .where(scopeColumn(scope), '=', scope.companyId)
        .where('m.sender_side', '=', otherSide(scope.side))
        .where('m.read_at', 'is', null)
        .select((eb) => [eb.fn.countAll<number>().as('messages'), sql<number>`count(distinct m.chat_id)`.as('chats')])
        .executeTakeFirst();
      return { messages: Number(row?.messages ?? 0), chats: Number(row?.chats ?? 0) };
    },

    async categoryExists(id: number) {
      return !!(await db.selectFrom('ticket_categories').select('id').where('id', '=', id).executeTakeFirst());
    },
  };
  return repo;
}
