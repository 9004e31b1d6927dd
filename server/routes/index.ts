import type { FastifyInstance } from 'fastify';
import authRoutes from './visitor/auth.js';
import enduserChatRoutes from './enduser/chats.js';
import companyChatRoutes from './company/chats.js';
import ticketCategoryRoutes from './visitor/ticketCategories.js';

/** Every route module, registered under /api/v1 in this order. */
export const routes: Array<(app: FastifyInstance) => Promise<void>> = [
  authRoutes,
  enduserChatRoutes,
  companyChatRoutes,
  ticketCategoryRoutes,
];
