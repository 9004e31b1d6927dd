import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { LANGS, type Lang } from '../../i18n/index.js';
import { composeMail, createMailer } from '../mail.js';
import { durationText } from '../duration.js';
import { nowIso } from '../tokens.js';
import { webhooksRepo, type DueDelivery } from '../../repositories/webhooks.js';
import { sendOnce } from './send.js';
import type { Lookup } from './addresses.js';

/** What tests and the server see of the worker (`app.webhooks`). */
export interface WebhookWorker {
  /** Claims and sends the due deliveries once (at most a batch); answers how many it attempted. */
  runOnce(): Promise<number>;
  /** Runs until nothing is due now (retries scheduled later are left for later). */
  drain(): Promise<number>;
  /** Removes the finished deliveries older than WEBHOOK_KEEP_DAYS (the worker does it hourly); answers how many. */
  purge(): Promise<number>;
  /** Tests: resolve host names with this instead of the system resolver (the SSRF check at delivery time). */
  setLookup(lookup: Lookup | undefined): void;
  /** The outcomes of this process's attempts since the start (`/metrics`: portal_webhook_attempts_total). */
  readonly outcomes: Record<AttemptOutcome, number>;
}

/** What became of one attempt: delivered, failed and retried later, failed and given up, or cut by the stop and handed back. */
export type AttemptOutcome = 'delivered' | 'retry' | 'gave_up' | 'handed_back';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookWorker;
  }
}

/** Deliveries claimed and sent at once by one process. */
const BATCH = 20;

/**
 * The delay before retry number `attempt` (1 = after the first failure): base, 4×, 16×, 64×, then at
 * most 240× the base (30 s, 2 min, 8 min, 32 min, 2 h, 2 h … with the default 30 s).
 */
export const backoff = (attempt: number, baseMs: number) => baseMs * Math.min(240, 4 ** Math.max(0, attempt - 1));

/**
 * The webhook worker (docs/webhooks.md), one per server process: every WEBHOOK_POLL_MS it claims due
 * deliveries (repositories/webhooks.ts claim: a lease, FOR UPDATE SKIP LOCKED on PostgreSQL), sends each
 * (lib/webhooks/send.ts: the SSRF check again, the Standard Webhooks signature, WEBHOOK_TIMEOUT_MS) and
 * records the outcome: delivered, retried after `backoff`, or — once WEBHOOK_RETRY_WINDOW_MS has passed
 * since the first attempt — given up, the endpoint marked failing and its company's users mailed. It starts
 * when the app is ready and stops on close, waiting for the attempts under way (at most the timeout).
 */
async function worker(app: FastifyInstance) {
  const repo = webhooksRepo(app.db);
  const cfg = app.config;
  const mailer = createMailer(cfg, app.log);
  // a claim outlives the longest attempt (the timeout, the address check, the record) and expires soon after a kill
  const leaseMs = 2 * cfg.webhookTimeoutMs + 5_000;
  let lookup: Lookup | undefined;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closing = false;
  let purgedAt = 0;
  // The graceful stop (issue 32): attempts under way get `handBackMs` to finish; then they are cut and
  // handed back (lease cleared, no attempt counted) so another process sends them at its next poll. Half
  // the stop's budget at most, so the rest of the stop (records, the database) fits in it.
  const stopping = new AbortController();
  const handBackMs = Math.min(cfg.webhookTimeoutMs, Math.floor(cfg.shutdownTimeoutMs / 2));
  let handBackTimer: NodeJS.Timeout | null = null;
  const outcomes: Record<AttemptOutcome, number> = { delivered: 0, retry: 0, gave_up: 0, handed_back: 0 };
  const purge = () => repo.purge(new Date(Date.now() - cfg.webhookKeepDays * 86_400_000).toISOString());

  async function tellCompany(endpointId: number) {
    const users = await app.db
      .selectFrom('webhook_endpoints as w')
      .innerJoin('users as u', 'u.company_id', 'w.company_id')
      .leftJoin('languages as l', 'l.id', 'u.language_id')
      .select(['u.email', 'l.code', 'w.url'])
      .where('w.id', '=', endpointId)
      .where('u.status_id', '=', 1)
      .where('u.role_id', '<>', 7) // support users do not manage the company's integrations
      .execute();
    // awaited (sendLater never throws: a failure is logged), so a run ends with its mails handed over
    await Promise.all(
      users.map(async (u) => {
        const lang: Lang = (LANGS as string[]).includes(u.code ?? '') ? (u.code as Lang) : 'it';
        return mailer.sendLater(
          await composeMail(app.db, { to: u.email, lang, key: 'mail.webhookFailing', params: { url: u.url, window: durationText(lang, cfg.webhookWindowMs) } }),
        );
      }),
    );
  }

  async function attempt(d: DueDelivery) {
    const at = nowIso();
    const r = await sendOnce({
      url: d.url,
      secret: d.secret,
      eventId: d.event_id,
      body: d.payload,
      timeoutMs: cfg.webhookTimeoutMs,
      production: cfg.production,
      lookup,
      signal: stopping.signal,
    });
    if (r.ok) {
      await repo.delivered(d, at, r.status!, r.durationMs);
      outcomes.delivered++;
      return;
    }
    if (stopping.signal.aborted && r.status === null) {
      // cut by the stop, not refused by the receiver: not an attempt (the receiver may have had it: same
      // webhook-id next time, which Standard Webhooks receivers deduplicate)
      await repo.handBack([d.id]);
      outcomes.handed_back++;
      app.log.info({ delivery: d.id, endpoint: d.endpoint_id }, 'webhook delivery handed back (server stopping)');
      return;
    }
    const first = Date.parse(d.first_attempt_at ?? at);
    const end = first + cfg.webhookWindowMs;
    const now = Date.now();
    const next = now >= end ? null : new Date(Math.min(end, now + backoff(d.attempts + 1, cfg.webhookBackoffMs))).toISOString();
    app.log.warn({ delivery: d.id, endpoint: d.endpoint_id, status: r.status, error: r.error, retry: next }, 'webhook delivery failed');
    const nowFailing = await repo.failed(d, at, r, next);
    outcomes[next ? 'retry' : 'gave_up']++;
    if (nowFailing) await tellCompany(d.endpoint_id);
  }

  async function runOnce(): Promise<number> {
    const due = await repo.claim(BATCH, leaseMs);
    await Promise.all(due.map((d) => attempt(d).catch((err) => app.log.error({ err, delivery: d.id }, 'webhook delivery not recorded'))));
    return due.length;
  }

  /** One run at a time per process: a second caller waits for the run under way, then runs. */
  async function serial(): Promise<number> {
    while (running) await running.catch(() => 0);
    if (closing) return 0; // the app is closing: its database goes next
    running = runOnce();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  async function drain() {
    let total = 0;
    for (let n = await serial(); n > 0; n = await serial()) total += n;
    return total;
  }

  function schedule() {
    if (closing || !cfg.webhookPollMs) return;
    timer = setTimeout(() => {
      timer = null;
      if (Date.now() - purgedAt > 3_600_000) {
        purgedAt = Date.now();
        void purge().catch((err) => app.log.error({ err }, 'webhook deliveries retention failed'));
      }
      drain()
        .catch((err) => app.log.error({ err }, 'webhook worker run failed'))
        .finally(schedule);
    }, cfg.webhookPollMs);
  }

  app.decorate('webhooks', {
    runOnce: serial,
    drain,
    purge,
    setLookup: (l: Lookup | undefined) => {
      lookup = l;
    },
    outcomes,
  } satisfies WebhookWorker);
  app.addHook('onReady', async () => schedule());
  // The stop begins (before the HTTP connections drain): no new run; the attempts under way get handBackMs.
  app.addHook('preClose', async () => {
    closing = true;
    if (timer) clearTimeout(timer);
    if (running) {
      handBackTimer = setTimeout(() => stopping.abort(), handBackMs);
      handBackTimer.unref();
    }
  });
  app.addHook('onClose', async () => {
    closing = true;
    if (timer) clearTimeout(timer);
    await running?.catch(() => 0);
    if (handBackTimer) clearTimeout(handBackTimer);
  });
}

export default fp(worker, { name: 'webhookWorker' });
