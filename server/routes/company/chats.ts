import type { App } from '../../lib/typed.js';
import {
  chatIdField,
  chatScope,
  messageField,
  presentMessage,
  readMessages,
  readMessagesSchema,
  requireText,
  ticketListSchema,
  readMessagesAnswer,
  ticketAnswer,
  messageAnswer,
  unreadAnswer,
} from '../../lib/chat.js';
import { pagedAnswer, writeAnswer } from '../../lib/answers.js';
import { chatsRepo } from '../../repositories/chats.js';

/**
 * The carrier's side of the support chat (server.md §7; the calculator document §7 "Company"): the
 * tickets of its end users, shared by its Carrier, Reseller, Carrier Users and Support users. Admins
 * have no chat screen (the documents give them none). `getChatUsers` lists the tickets with the
 * end-user company and user names. Closing is final (the documents give no reopen): the end user
 * opens a new ticket for a new question.
 */
export default async function companyChatRoutes(app: App) {
  const chats = chatsRepo(app.db);
  const policy = ['carrier' as const, 'support' as const];

  app.get(
    '/company/chats/getChatUsers',
    {
      config: { policy },
      schema: {
        tags: ['company chat'],
        summary: "The tickets of the carrier's end users.",
        response: { 200: pagedAnswer(ticketAnswer) },
        querystring: ticketListSchema,
      },
    },
    async (req) => chats.listTickets(chatScope(req), req.query),
  );

  app.post(
    '/company/chats/getChatMessages',
    {
      config: { policy, notAudited: 'a read (a POST by the documents): marking messages read changes no record worth an entry' },
      schema: {
        tags: ['company chat'],
        summary: 'The messages of a ticket (cursor list); marks them read.',
        response: { 200: readMessagesAnswer },
        body: readMessagesSchema,
      },
    },
    async (req) => readMessages(app.db, req, req.body),
  );

  app.post(
    '/company/chats/sendChatMessage',
    {
      config: { policy, dropsControlCharacters: true },
      schema: {
        tags: ['company chat'],
        summary: 'Answers in a ticket.',
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

  app.post(
    '/company/chats/closeChat',
    {
      config: { policy },
      schema: {
        tags: ['company chat'],
        summary: 'Closes a ticket.',
        response: { 200: writeAnswer(ticketAnswer) },
        body: { type: 'object', required: ['chat_id'], additionalProperties: false, properties: { chat_id: chatIdField } },
      },
    },
    async (req) => {
      const { chat_id } = req.body;
      const scope = chatScope(req);
      await chats.close(scope, req.user!.id, chat_id);
      req.audit({ action: 'status', resource: 'tickets', resource_id: chat_id, changes: { status: { before: 'open', after: 'closed' } } });
      return { status: true, message: req.t('chat.closedOk'), data: await chats.ticket(scope, chat_id) };
    },
  );

  app.get(
    '/company/chats/unread',
    {
      config: { policy },
      schema: { tags: ['company chat'], summary: "The unread messages of the carrier's side.", response: { 200: unreadAnswer } },
    },
    async (req) => ({ data: await chats.unread(chatScope(req)) }),
  );
}
