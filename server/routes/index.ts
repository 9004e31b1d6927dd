import type { FastifyInstance } from 'fastify';
import authRoutes from './visitor/auth.js';
import lookupRoutes from './visitor/lookups.js';
import referenceDataRoutes from './admin/referenceData.js';
import enduserChatRoutes from './enduser/chats.js';
import companyChatRoutes from './company/chats.js';
import costRequestRoutes from './visitor/costRequest.js';
import pingRoutes from './visitor/ping.js';
import settingsRoutes from './visitor/settings.js';
import adminSettingsRoutes from './admin/settings.js';

/** Every route module, registered under /api/v1 in this order. */
export const routes: Array<(app: FastifyInstance) => Promise<void>> = [
  authRoutes,
  lookupRoutes,
  referenceDataRoutes,
  enduserChatRoutes,
  companyChatRoutes,
  costRequestRoutes,
  pingRoutes,
  settingsRoutes,
  adminSettingsRoutes,
];
