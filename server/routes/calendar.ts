import type { App } from '../lib/typed.js';
import { CALENDAR_FEED_PATH, CALENDAR_TOKEN } from '../../model/calendarFeed.js';
import { calendarFeedsRepo } from '../repositories/calendarFeeds.js';
import { calendarFeed } from '../lib/calendarFeed.js';

/**
 * A company's calendar feed (issue 36 item 4, docs/calendar-feed.md): `GET /ical/<token>.ics`, outside
 * /api/v1 so that calendar apps, which send no headers, can subscribe: no API password, no session; the
 * token is the only secret. An address of the wrong shape, an unknown token, a feed turned off or a company
 * deactivated all answer the same plain 404 as any unknown path (app.ts), and a wrong shape touches no database.
 * The answer is private (`Cache-Control: private, max-age=300`: a shared cache must not keep another
 * company's feed) with an ETag of its content: a calendar that sends If-None-Match gets 304 while nothing
 * changed.
 */
export default async function calendarRoutes(app: App) {
  const feeds = calendarFeedsRepo(app.db);
  const notFound = (reply: import('fastify').FastifyReply) => reply.status(404).type('text/plain; charset=utf-8').send('Not found');

  app.get(
    `${CALENDAR_FEED_PATH}/:file`,
    { schema: { hide: true, params: { type: 'object', properties: { file: { type: 'string' } } } } },
    async (req, reply) => {
      const m = /^(.+)\.ics$/.exec(req.params.file ?? '');
      if (!m || !CALENDAR_TOKEN.test(m[1])) return notFound(reply);
      const owner = await feeds.ownerOf(m[1]);
      if (!owner) return notFound(reply);
      const { body, etag } = await calendarFeed(app.db, owner, app.config.publicUrl);
      await feeds.touch(owner).catch((err) => req.log.warn({ err }, 'last_fetched_at of a calendar feed not updated'));
      reply
        .header('cache-control', 'private, max-age=300')
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff')
        // a calendar, not a page: never indexed should the address leak
        .header('x-robots-tag', 'noindex');
      const asked = req.headers['if-none-match'];
      if (typeof asked === 'string' && asked.split(',').some((t) => t.trim() === etag)) return reply.status(304).send();
      return reply.type('text/calendar; charset=utf-8').header('content-disposition', 'inline; filename="calendar.ics"').send(body);
    },
  );
}
