import 'fastify';
import type { Kind } from '../model/roles';
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
    /** Where uploaded files are kept (lib/files.ts: DATA_DIR/files, the database or an S3 bucket, from FILES_URL). */
    files: import('./lib/files').FileStore;
    /** Every /api/v1 route with its policy, as registered (tests list them). */
    routeTable: Array<import('./plugins/session').RouteEntry>;
    /** The write routes ("POST /api/v1/…"): each records an audit entry when it answers 2xx (plugins/audit.ts). */
    writeRoutes: Set<string>;
    /** The routes ("POST /api/v1/…") whose 2xx answers are written by compiled serializers (plugins/answers.ts). */
    compiledAnswerRoutes: Set<string>;
    /** The stream tickets of this process (lib/liveStream.ts). */
    liveTickets: ReturnType<typeof import('./lib/liveStream').ticketKeeper>;
    /** This process's side of the live events (lib/liveEvents.ts). */
    live: import('./lib/liveEvents').LiveHub;
  }
  interface FastifyRequest {
    lang: Lang;
    /** The caller; `apiKey` set when it came with an API key (lib/apiKeyAuth.ts) rather than a session. */
    user?: SessionUser & { kind: Kind; apiKey?: import('./repositories/apiKeys').KeyIdentity };
    t(key: string, params?: Record<string, unknown>): string;
    /** Records an audit entry, written when the route answers 2xx (plugins/audit.ts). */
    audit(entry: import('./repositories/auditLog').AuditEntry): void;
    auditEntries: Array<import('./repositories/auditLog').AuditEntry> | null;
    /** An entry was written at once for this request (plugins/audit.ts auditEvent). */
    auditRecorded: boolean;
    /** A write route's 2xx answer that wrote nothing (`{status: false}`, a price that changed meanwhile). */
    auditNothing(): void;
    /** Set when the caller came with a live-stream ticket: when its session expires. */
    liveSession: { expires_at: string } | null;
  }
  interface FastifyContextConfig {
    policy?: Policy;
    /** The declared resource (model/registry.ts) a generated route serves, and the action: field names in messages come from it. */
    resource?: string;
    action?: string;
    /** @fastify/multipart options of this route (e.g. a larger file size cap). */
    multipartOptions?: { limits?: { fileSize?: number; files?: number } };
    /** A multipart body whose declared Content-Length is past this is refused (413, as a file too large) before it is read (plugins/forms.ts). */
    uploadMaxBytes?: number;
    /** The route's upload cap as shown in the 413 message, e.g. '20 MB' (default '5 MB'). */
    uploadLimit?: string;
    /** Its 2xx answers are written by serializers compiled from their (closed) schemas (plugins/answers.ts compileAnswer), not JSON.stringify. */
    compiledAnswer?: boolean;
    /** The handler drops control characters from its text itself (chat: lib/chat.ts cleanText), so U+0000 is not refused first (plugins/inputGuards.ts). */
    dropsControlCharacters?: boolean;
    /** A POST (or write-verb GET) that writes nothing: why (plugins/audit.ts; otherwise it must record an audit entry). */
    notAudited?: string;
    /** The live stream: a `ticket` in the query authenticates instead of the headers (plugins/session.ts). */
    liveTicket?: boolean;
    /**
     * Body fields the handler itself refuses when missing (422 `validation.required`), together with every other
     * problem of the body in one answer: the document lists them in the body's `required` (issue 33), the
     * validation schema does not (it would answer the missing ones alone, first).
     */
    bodyRequired?: readonly string[];
  }
}
