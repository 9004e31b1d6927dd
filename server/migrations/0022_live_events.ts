import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The live events' short memory (issue 24, docs/live-events.md): every event the stream
 * (`GET /{ns}/events`) sends is a row here first, written in the writer's transaction, so a rolled-back
 * change leaves none and a tab that reconnects with `Last-Event-ID` gets what it missed. `type` names the
 * event, `data` its ids (JSON text), `audience` who may see it (JSON text, lib/liveEvents.ts). Rows older
 * than a few minutes are removed by the servers as they publish; nothing else reads the table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('live_events'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_events_created').on('live_events').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('live_events').ifExists().execute();
}
