import type { FastifyInstance } from 'fastify';
import { chatsRepo } from '../../repositories/chats.js';

/**
 * GET /visitor/ticket_categories: the categories a ticket is opened under. Written with the chat
 * (issue 10) because the reference-data lookups (issue 5) had not landed; when they do, keep one of
 * the two registrations.
 */
export default async function ticketCategoryRoutes(app: FastifyInstance) {
  const chats = chatsRepo(app.db);
  app.get('/visitor/ticket_categories', {
    config: { policy: 'public' },
    schema: { tags: ['visitor'] },
  }, async () => ({ data: await chats.categories() }));
}
