import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { ChatMessageTable, ChatSide, TicketTable } from '../db/types.js';
import { cBool, cInt, cIntN, col, columnsOf, cStr, cStrN, cTime, cTimeN, described, oneOf, orNull } from './columns.js';
import { chatsRepo, MAX_MESSAGES, type ChatScope, type TicketView } from '../repositories/chats.js';
import { invalid, unauthenticated } from './errors.js';
import { listQuerySchema } from './paging.js';
import type { Db } from '../db/index.js';
import { stripInvisible } from './invisibleText.js';

/** A message is plain text of at most this many characters (counted as Unicode code points, as the schema does). */
import { bool, int, intN, list, obj } from './answers.js';

export const MESSAGE_MAX = 4000;
export const SUBJECT_MAX = 150;

/** The caller's side of the chats, from the token: its end-user company, or its carrier company. */
export function chatScope(req: FastifyRequest): ChatScope {
  const u = req.user;
  if (!u) throw unauthenticated();
  return u.kind === 'enduser' ? { side: 'enduser', companyId: u.company_id, lang: req.lang } : { side: 'carrier', companyId: u.company_id, lang: req.lang };
}

/**
 * Plain text as stored: line ends unified, control characters other than newline and tab dropped
 * (PostgreSQL refuses NUL in text), invisible and text-direction characters dropped (an emoji's joiner
 * kept; lib/invisibleText.ts, issue 31: a message is pasted from anywhere, so they are stripped here
 * where every other body refuses them), surrounding blanks trimmed. Markup stays literal text: the
 * client never renders HTML from a message.
 */
export function cleanText(value: string): string {
  return stripInvisible(value)
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .trim();
}

/** Cleans the named text fields; an empty result is "required" (422), and nothing is stored. */
export function requireText<T extends Record<string, unknown>>(body: T, fields: Array<keyof T & string>): T {
  const out: Record<string, unknown> = { ...body };
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = cleanText(String(body[f] ?? ''));
    if (!v) errors[f] = 'validation.required';
    out[f] = v;
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return out as T;
}

export const messageField = { type: 'string', minLength: 1, maxLength: MESSAGE_MAX } as const;
export const chatIdField = { type: 'integer', minimum: 1 } as const;

/** The reading options of getChatMessages (query string for end users, body for companies). */
export const readMessagesSchema = {
  type: 'object',
  required: ['chat_id'],
  additionalProperties: false,
  properties: {
    chat_id: chatIdField,
    after: { type: 'integer', minimum: 0, description: 'Only messages with a greater id (the last id the client holds): incremental polling.' },
    before: { type: 'integer', minimum: 1, description: 'Only messages with a smaller id: older history.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_MESSAGES, default: 100 },
    mark_read: { type: 'boolean', default: true, description: 'Mark the other side’s messages as read (false while the window is hidden).' },
  },
} as const;

export const ticketListSchema = listQuerySchema(['last_message_at', 'created_at', 'subject', 'status', 'id'], {
  status: { type: 'string', enum: ['open', 'closed'] },
  q: { type: 'string', maxLength: 100 },
  enduser_id: { type: 'integer', minimum: 1 },
  transport_request_id: { type: 'integer', minimum: 1, description: 'Only the tickets about this transport request.' },
});

/** The schema's defaults fill `limit` and `mark_read`. */
export interface ReadMessagesInput {
  chat_id: number;
  after?: number;
  before?: number;
  limit?: number;
  mark_read?: boolean;
}

/** What each ticket status means (every value of the column's type: the compiler checks the keys). */
export const TICKET_STATUS_MEANINGS: Record<TicketTable['status'], string> = {
  open: 'both sides write',
  closed: 'closed for good (closeChat); a new question is a new ticket',
};
/** The two sides of a chat (every value of ChatSide). */
export const CHAT_SIDE_MEANINGS: Record<ChatSide, string> = {
  enduser: "the end-user company's users",
  carrier: "the carrier's users (Carrier, Reseller, Carrier Users, Support)",
};
const chatSide = oneOf(CHAT_SIDE_MEANINGS, 'The side that wrote');

/** A ticket as the chat routes answer it (repositories/chats.ts `present`): complete, checked by the compiler. */
export const ticketAnswer = columnsOf<TicketView>()({
  id: cInt,
  chat_id: described(cInt, 'The same as id (the documents name the ticket `chat_id`)'),
  ticket_category_id: cIntN,
  category_name: cStrN,
  subject: cStr,
  status: oneOf(TICKET_STATUS_MEANINGS, 'The ticket status'),
  enduser_company_id: cInt,
  enduser_company_name: cStr,
  enduser_user_id: cInt,
  enduser_user_name: described(cStr, "The opener's full name (empty when the user is gone)"),
  carrier_company_id: cInt,
  created_at: cTime,
  last_message_at: cTime,
  closed_at: cTimeN,
  closed_by: cIntN,
  closed_by_name: described(cStrN, "The closer's full name"),
  last_message: described(cStrN, 'The first 140 characters of the newest message'),
  last_sender_side: orNull(chatSide),
  last_sender_name: cStrN,
  unread: described(col({ type: 'integer', minimum: 0 }), "The other side's messages the caller's side has not read"),
  transport_request_id: described(cIntN, 'The transport request the ticket is about (its number), null for a general question'),
});
type PresentedMessage = ReturnType<typeof presentMessage<Selectable<ChatMessageTable>>>;
/** A message with `is_mine` (presentMessage): the columns of chat_messages. */
export const messageAnswer = columnsOf<PresentedMessage>()({
  id: cInt,
  chat_id: cInt,
  sender_user_id: described(cIntN, 'The writer (null once the user is deleted)'),
  sender_name: described(cStr, "The writer's name when it wrote"),
  sender_side: chatSide,
  body: cStr,
  created_at: cTime,
  read_at: described(cTimeN, 'When the other side read it'),
  is_mine: described(cBool, 'Written by the caller'),
});
/** getChatMessages: `{data, ticket, has_more, read_up_to}`. */
export const readMessagesAnswer = obj({ data: list(messageAnswer), ticket: ticketAnswer, has_more: bool, read_up_to: intN });
/** The unread counts of the caller's side. */
export const unreadAnswer = obj({ data: obj({ messages: int, chats: int }) });

export const presentMessage = <M extends Pick<ChatMessageTable, 'sender_user_id'>>(m: M, userId: number) => ({
  ...m,
  is_mine: m.sender_user_id === userId,
});

/**
 * getChatMessages for both namespaces. The answer is a cursor list rather than a numbered page
 * (a conversation is read by "newer than" and "older than", not by page): `{data, ticket, has_more,
 * read_up_to}`; `ticket` carries the status so a poller sees a close at once, `read_up_to` is the
 * highest id of the caller's side that the other side has read.
 */
export async function readMessages(db: Db, req: FastifyRequest, input: ReadMessagesInput) {
  const scope = chatScope(req);
  const repo = chatsRepo(db);
  const ticket = await repo.ticket(scope, input.chat_id);
  const { rows, hasMore } = await repo.messages(input.chat_id, { ...input, limit: input.limit ?? 100 });
  if (input.mark_read ?? true) {
    const upTo = Math.max(input.after ?? 0, ...rows.map((r) => r.id));
    if (upTo > 0) await repo.markRead(input.chat_id, scope.side, upTo);
    if (ticket.unread) ticket.unread = Number((await repo.findTicket(scope, input.chat_id))?.unread ?? 0);
  }
  return {
    data: rows.map((r) => presentMessage(r, req.user!.id)),
    ticket,
    has_more: hasMore,
    read_up_to: await repo.readUpTo(input.chat_id, scope.side),
  };
}
