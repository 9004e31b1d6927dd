import type { App } from '../../lib/typed.js';
import { ApiError } from '../../lib/errors.js';
import { HitBatcher } from '../../lib/hitBatcher.js';
import { registerMessages } from '../../i18n/index.js';
import { tracking } from '../../i18n/tracking.js';
import { throttleRepo } from '../../repositories/throttle.js';
import { trackingRepo } from '../../repositories/tracking.js';
import { requestIdOfCode, trackAnswerSchema, trackQuerySchema } from '../../../model/publicTracking.js';

registerMessages(tracking);

const MINUTE = 60_000;

/** 429 with `Retry-After` (seconds) and a message saying how long to wait, in the caller's language. */
function tooManyTries(retryMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  const err = minutes <= 1 ? new ApiError(429, 'tracking.tooManyOne') : new ApiError(429, 'tracking.tooManyMany', { minutes });
  err.headers = { 'retry-after': String(seconds) };
  return err;
}

/**
 * GET /visitor/track (issue 22 item 5, docs/tracking.md): a request's status and the timeline's dates and
 * events for whoever holds both its number and its destination postal code (the consignee's mail links
 * here through model/tracking.ts `trackingPath`). No sign-in; nothing else of the request is answered.
 *
 * Per client address, two counters shared by every server process:
 * - every call, whatever its outcome, in fixed one-minute windows (`rate_limits`, config.track.ratePerMinute);
 * - wrong pairs in a sliding window (`throttle_events`, config.track.missLimit in missWindowMinutes). Each
 *   lookup takes its slot BEFORE the check and gives it back on a match, so concurrent guesses cannot all
 *   pass a count made below the limit; a full bucket refuses even right pairs until a slot frees.
 * A mismatch is one 404 whichever of the two was wrong.
 */
export default async function trackRoutes(app: App) {
  const calls = new HitBatcher(app.db, MINUTE);
  const throttle = throttleRepo(app.db);
  const repo = trackingRepo(app.db);
  const { ratePerMinute, missLimit, missWindowMinutes } = app.config.track;
  const missWindowMs = missWindowMinutes * MINUTE;

  app.get(
    '/visitor/track',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary:
          'Tracks a transport request by its number and destination postal code: its status, the dates of its events, the route, the carrier and the expected delivery day.',
        querystring: trackQuerySchema,
        response: { 200: trackAnswerSchema },
      },
      preValidation: async (req) => {
        if ((await calls.hit(`track:ip:${req.ip}`)) > ratePerMinute) throw tooManyTries(MINUTE - (Date.now() % MINUTE));
      },
    },
    async (req, reply) => {
      const bucket = `track:miss:${req.ip}`;
      const slot = await throttle.take(bucket, missWindowMs, missLimit);
      if (slot === null) {
        const oldest = await throttle.oldest(bucket, missWindowMs);
        throw tooManyTries(oldest === null ? 1000 : oldest + missWindowMs - Date.now());
      }
      const id = requestIdOfCode(req.query.code);
      const found = id === null ? null : await repo.find(id, req.query.postal_code);
      // the slot stays taken: one miss counted
      if (!found) throw new ApiError(404, 'tracking.notFound');
      await throttle.release(slot);
      reply.header('cache-control', 'private, no-store');
      return {
        status: true as const,
        data: {
          code: String(found.id),
          status_id: found.status_id,
          status: req.t(`status.${found.status_id}`),
          origin_city: found.origin_city,
          origin_country: found.origin_country,
          destination_city: found.destination_city,
          destination_country: found.destination_country,
          carrier_name: found.carrier_name,
          lead_time: found.lead_time,
          expected_delivery: found.expected_delivery,
          delivered_at: found.delivered_at,
          events: found.events,
        },
      };
    },
  );
}
