import 'fastify';
import type { Kind } from '../src/schema/roles';
import type { Db, DialectName } from './db/index';
import type { Config } from './config';
import type { Lang } from './i18n/index';
import type { SessionUser } from './repositories/tokens';

/**
 * Every /api/v1 route declares who may call it: 'public' (anyone; a token, if sent, must be valid),
 * 'signedIn' (any signed-in user) or the kinds of user allowed.
 */
export type Policy = 'public' | 'signedIn' | Kind[];

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: DialectName;
    config: Config;
    /** Every /api/v1 route with its policy, as registered (tests list them). */
    routeTable: Array<{ method: string; url: string; policy: Policy }>;
  }
  interface FastifyRequest {
    lang: Lang;
    user?: SessionUser & { kind: Kind };
    t(key: string, params?: Record<string, unknown>): string;
  }
  interface FastifyContextConfig {
    policy?: Policy;
    /** The upload limit a 413 names on this route (default 5 MB, the largest any route takes). */
    uploadLimit?: string;
  }
}
