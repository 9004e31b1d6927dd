import type { FastifyInstance } from 'fastify';
import { chatIdField, chatScope, messageField, presentMessage, readMessages, readMessagesSchema, requireText, SUBJECT_MAX, ticketListSchema, type ReadMessagesInput } from '../../lib/chat.js';
import { conflict, invalid } from '../../lib/errors.js';
import type { TicketListQuery } from '../../repositories/chats.js';
import { chatsRepo } from '../../repositories/chats.js';

/**
 * The end user's side of the support chat (server.md §7; the calculator document §7 "Enduser"). Its
 * tickets are its company's: every end user of a company sees and writes in the company's tickets.
 * Policy: end users only (`support` in model/permissions.ts).
 */
export default async function enduserChatRoutes(app: FastifyInstance) {
  const chats = chatsRepo(app.db);
  const policy = ['enduser' as const];

  app.get('/enduser/chats/getTickets', {
    config: { policy },
    schema: { tags: ['enduser chat'], querystring: ticketListSchema },
  }, async (req) => chats.listTickets(chatScope(req), req.query as TicketListQuery));

  app.post('/enduser/chats/newTicket', {
    config: { policy, dropsControlCharacters: true },
    schema: {
      tags: ['enduser chat'],
      body: {
        type: 'object',
        required: ['ticket_category_id', 'subject', 'message'],
        additionalProperties: false,
        properties: {
          ticket_category_id: { type: 'integer', minimum: 1 },
          subject: { type: 'string', minLength: 1, maxLength: SUBJECT_MAX },
          message: messageField,
        },
      },
    },
  }, async (req) => {
    const body = requireText(req.body as { ticket_category_id: number; subject: string; message: string }, ['subject', 'message']);
    // A subject is one line.
    body.subject = body.subject.replace(/\s+/g, ' ');
    if (!(await chats.categoryExists(body.ticket_category_id))) throw invalid({ ticket_category_id: 'validation.exists' });
    const user = req.user!;
    if (!user.carrier_id) throw conflict('chat.noCarrier');
    const id = await chats.open(user, user.company_id, user.carrier_id, body.ticket_category_id, body.subject, body.message);
    return { status: true, message: req.t('chat.ticketCreated'), data: await chats.ticket(chatScope(req), id) };
  });

  app.post('/enduser/chats/sendChatMessage', {
    config: { policy, dropsControlCharacters: true },
    schema: {
      tags: ['enduser chat'],
      body: { type: 'object', required: ['chat_id', 'message'], additionalProperties: false, properties: { chat_id: chatIdField, message: messageField } },
    },
  }, async (req) => {
    const body = requireText(req.body as { chat_id: number; message: string }, ['message']);
    const message = await chats.send(chatScope(req), req.user!, body.chat_id, body.message);
    return { status: true, message: req.t('chat.messageSent'), data: presentMessage(message, req.user!.id) };
  });

  app.get('/enduser/chats/getChatMessages', {
    config: { policy },
    schema: { tags: ['enduser chat'], querystring: readMessagesSchema },
  }, async (req) => readMessages(app.db, req, req.query as ReadMessagesInput));

  app.get('/enduser/chats/unread', {
    config: { policy },
    schema: { tags: ['enduser chat'] },
  }, async (req) => ({ data: await chats.unread(chatScope(req)) }));
}
