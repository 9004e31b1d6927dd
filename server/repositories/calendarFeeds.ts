import crypto from 'node:crypto';
import type { Db } from '../db/index.js';
import { hashToken, newToken, nowIso } from '../lib/tokens.js';

/** The feed's state as the settings card shows it: never the token, never its hash. */
export interface CalendarFeedState {
  created_at: string;
  created_by_name: string;
  last_fetched_at: string | null;
}

/** The company a feed URL opens (only active companies: a deactivated one's URL answers 404 like an unknown one). */
export interface FeedOwner {
  feed_id: number;
  company_id: number;
  company_role_id: number;
  company_name: string;
  lang: string | null;
  last_fetched_at: string | null;
}

/** `last_fetched_at` moves at most once an hour: a calendar polling every few minutes writes nothing more. */
const TOUCH_MS = 3_600_000;

/**
 * A company's private calendar feed (migration 0030, docs/calendar-feed.md). The URL's token is 256 random
 * bits (lib/tokens.ts newToken, base64url), answered once when made; only its SHA-256 is stored.
 */
export function calendarFeedsRepo(db: Db) {
  return {
    async stateOf(companyId: number): Promise<CalendarFeedState | undefined> {
      return db
        .selectFrom('calendar_feeds')
        .select(['created_at', 'created_by_name', 'last_fetched_at'])
        .where('company_id', '=', companyId)
        .executeTakeFirst();
    },

    /** Turns the feed on with a new token; 'exists' when it is on already (the row's unique company_id decides a race). */
    async enable(companyId: number, by: { id: number; name: string }): Promise<string | 'exists'> {
      const token = newToken();
      const inserted = await db
        .insertInto('calendar_feeds')
        .values({ company_id: companyId, token_hash: hashToken(token), created_by: by.id, created_by_name: by.name, created_at: nowIso() })
        .onConflict((oc) => oc.column('company_id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? token : 'exists';
    },

    /** A new token for an enabled feed (the old one stops matching in the same statement); undefined when off. */
    async regenerate(companyId: number, by: { id: number; name: string }): Promise<string | undefined> {
      const token = newToken();
      const updated = await db
        .updateTable('calendar_feeds')
        .set({ token_hash: hashToken(token), created_by: by.id, created_by_name: by.name, created_at: nowIso(), last_fetched_at: null })
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? token : undefined;
    },

    /** Turns the feed off; false when it was off. */
    async disable(companyId: number): Promise<boolean> {
      const removed = await db.deleteFrom('calendar_feeds').where('company_id', '=', companyId).executeTakeFirst();
      return Number(removed.numDeletedRows) === 1;
    },

    /**
     * The active company a token opens. Looked up by the token's SHA-256 (an index lookup whose timing says
     * nothing about how close a guess was: the attacker does not control the hash's bytes), then the stored
     * hash is compared with the computed one in constant time as well (belt and braces).
     */
    async ownerOf(token: string): Promise<FeedOwner | undefined> {
      const hash = hashToken(token);
      const row = await db
        .selectFrom('calendar_feeds as f')
        .innerJoin('companies as c', 'c.id', 'f.company_id')
        .leftJoin('languages as l', 'l.id', 'c.language_id')
        .select(['f.id as feed_id', 'f.company_id', 'f.token_hash', 'f.last_fetched_at', 'c.company_role_id', 'c.legal_name', 'c.status_id', 'l.code as lang'])
        .where('f.token_hash', '=', hash)
        .executeTakeFirst();
      if (!row || !crypto.timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash)) || Number(row.status_id) !== 1) return undefined;
      return {
        feed_id: row.feed_id,
        company_id: row.company_id,
        company_role_id: Number(row.company_role_id),
        company_name: row.legal_name,
        lang: row.lang,
        last_fetched_at: row.last_fetched_at,
      };
    },

    /** Notes a calendar's read, at most once an hour (the card's "last read"). */
    async touch(owner: FeedOwner): Promise<void> {
      const now = nowIso();
      if (owner.last_fetched_at && Date.parse(now) - Date.parse(owner.last_fetched_at) < TOUCH_MS) return;
      await db.updateTable('calendar_feeds').set({ last_fetched_at: now }).where('id', '=', owner.feed_id).execute();
    },
  };
}
