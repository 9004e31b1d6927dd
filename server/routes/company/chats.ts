import type { FastifyInstance } from 'fastify';
import { chatIdField, chatScope, messageField, presentMessage, readMessages, readMessagesSchema, requireText, ticketListSchema, type ReadMessagesInput } from '../../lib/chat.js';
import type { TicketListQuery } from '../../repositories/chats.js';
import { chatsRepo } from '../../repositories/chats.js';

/**
 * The carrier's side of the support chat (server.md §7; the calculator document §7 "Company"): the
 * tickets of its end users, shared by its Carrier, Reseller, Carrier Users and Support users. Admins
 * have no chat screen (the documents give them none). `getChatUsers` lists the tickets with the
 * end-user company and user names. Closing is final (the documents give no reopen): the end user
 * opens a new ticket for a new question.
 */
export default async function companyChatRoutes(app: FastifyInstance) {
  const chats = chatsRepo(app.db);
  const policy = ['carrier' as const, 'support' as const];

  app.get('/company/chats/getChatUsers', {
    config: { policy },
    schema: { tags: ['company chat'], querystring: ticketListSchema },
  }, async (req) => chats.listTickets(chatScope(req), req.query as TicketListQuery));

  app.post('/company/chats/getChatMessages', {
    config: { policy },
    schema: { tags: ['company chat'], body: readMessagesSchema },
  }, async (req) => readMessages(app.db, req, req.body as ReadMessagesInput));

  app.post('/company/chats/sendChatMessage', {
    config: { policy, dropsControlCharacters: true },
    schema: {
      tags: ['company chat'],
      body: { type: 'object', required: ['chat_id', 'message'], additionalProperties: false, properties: { chat_id: chatIdField, message: messageField } },
    },
  }, async (req) => {
    const body = requireText(req.body as { chat_id: number; message: string }, ['message']);
    const message = await chats.send(chatScope(req), req.user!, body.chat_id, body.message);
    return { status: true, message: req.t('chat.messageSent'), data: presentMessage(message, req.user!.id) };
  });

  app.post('/company/chats/closeChat', {
    config: { policy },
    schema: {
      tags: ['company chat'],
      body: { type: 'object', required: ['chat_id'], additionalProperties: false, properties: { chat_id: chatIdField } },
    },
  }, async (req) => {
    const { chat_id } = req.body as { chat_id: number };
    const scope = chatScope(req);
    await chats.close(scope, req.user!.id, chat_id);
    return { status: true, message: req.t('chat.closedOk'), data: await chats.ticket(scope, chat_id) };
  });

  app.get('/company/chats/unread', {
    config: { policy },
    schema: { tags: ['company chat'] },
  }, async (req) => ({ data: await chats.unread(chatScope(req)) }));
}
