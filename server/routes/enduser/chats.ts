import type { App } from '../../lib/typed.js';
import {
  chatIdField,
  chatScope,
  messageField,
  presentMessage,
  readMessages,
  readMessagesSchema,
  requireText,
  SUBJECT_MAX,
  ticketListSchema,
  readMessagesAnswer,
  ticketAnswer,
  messageAnswer,
  unreadAnswer,
} from '../../lib/chat.js';
import { pagedAnswer, writeAnswer } from '../../lib/answers.js';
import { conflict, invalid } from '../../lib/errors.js';
import { chatsRepo } from '../../repositories/chats.js';

/**
 * The end user's side of the support chat (server.md §7; the calculator document §7 "Enduser"). Its
 * tickets are its company's: every end user of a company sees and writes in the company's tickets.
 * Policy: end users only (`support` in model/permissions.ts).
 */
export default async function enduserChatRoutes(app: App) {
  const chats = chatsRepo(app.db);
  const policy = ['enduser' as const];

  app.get(
    '/enduser/chats/getTickets',
    {
      config: { policy },
      schema: {
        tags: ['enduser chat'],
        summary: "The tickets of the end user's company.",
        response: { 200: pagedAnswer(ticketAnswer) },
        querystring: ticketListSchema,
      },
    },
    async (req) => chats.listTickets(chatScope(req), req.query),
  );

  app.post(
    '/enduser/chats/newTicket',
    {
      config: { policy, dropsControlCharacters: true },
      schema: {
        tags: ['enduser chat'],
        summary: 'Opens a ticket with its first message.',
        response: { 200: writeAnswer(ticketAnswer) },
        body: {
          type: 'object',
          required: ['ticket_category_id', 'subject', 'message'],
          additionalProperties: false,
          properties: {
            ticket_category_id: { type: 'integer', minimum: 1 },
            subject: { type: 'string', minLength: 1, maxLength: SUBJECT_MAX },
            message: messageField,
            transport_request_id: {
              type: ['integer', 'null'],
              minimum: 1,
              description: "The transport request the ticket is about: one of the end user's company's (else 422).",
            },
          },
        },
      },
    },
    async (req) => {
      const body = requireText(req.body, ['subject', 'message']);
      const requestId = body.transport_request_id ?? null;
      // A subject is one line.
      body.subject = body.subject.replace(/\s+/g, ' ');
      if (!(await chats.categoryExists(body.ticket_category_id))) throw invalid({ ticket_category_id: 'validation.exists' });
      const user = req.user!;
      if (!user.carrier_id) throw conflict('chat.noCarrier');
      // A request the end user may not see is refused like an unknown one (nothing tells it exists).
      if (
        requestId !== null &&
        !(await app.db
          .selectFrom('transport_requests')
          .select('id')
          .where('id', '=', requestId)
          .where('enduser_company_id', '=', user.company_id)
          .executeTakeFirst())
      ) {
        throw invalid({ transport_request_id: 'chat.requestNotYours' });
      }
      const id = await chats.open(user, user.company_id, user.carrier_id, body.ticket_category_id, body.subject, body.message, requestId);
      req.audit({
        action: 'create',
        resource: 'tickets',
        resource_id: id,
        company_id: user.company_id,
        changes: {
          ticket_category_id: { before: null, after: body.ticket_category_id },
          subject: { before: null, after: body.subject },
          ...(requestId !== null ? { transport_request_id: { before: null, after: requestId } } : {}),
        },
      });
      return { status: true, message: req.t('chat.ticketCreated'), data: await chats.ticket(chatScope(req), id) };
    },
  );

  app.post(
    '/enduser/chats/sendChatMessage',
    {
      config: { policy, dropsControlCharacters: true },
      schema: {
        tags: ['enduser chat'],
        summary: 'Writes in a ticket.',
        response: { 200: writeAnswer(messageAnswer) },
        body: { type: 'object', required: ['chat_id', 'message'], additionalProperties: false, properties: { chat_id: chatIdField, message: messageField } },
      },
    },
    async (req) => {
      const body = requireText(req.body, ['message']);
      const message = await chats.send(chatScope(req), req.user!, body.chat_id, body.message);
      // The text stays in the chat: the entry names the message and its ticket.
      req.audit({ action: 'create', resource: 'chat_messages', resource_id: Number(message.id), changes: { chat_id: { before: null, after: body.chat_id } } });
      return { status: true, message: req.t('chat.messageSent'), data: presentMessage(message, req.user!.id) };
    },
  );

  app.get(
    '/enduser/chats/getChatMessages',
    {
      config: { policy },
      schema: {
        tags: ['enduser chat'],
        summary: 'The messages of a ticket (cursor list); marks them read.',
        response: { 200: readMessagesAnswer },
        querystring: readMessagesSchema,
      },
    },
    async (req) => readMessages(app.db, req, req.query),
  );

  app.get(
    '/enduser/chats/unread',
    {
      config: { policy },
      schema: { tags: ['enduser chat'], summary: "The unread messages of the end user's side.", response: { 200: unreadAnswer } },
    },
    async (req) => ({ data: await chats.unread(chatScope(req)) }),
  );
}
