/**
 * The webhook fault run of `npm run bench:faults` (issue 23, docs/webhooks.md): a receiver listens (in this
 * process, so it outlives the server) while lanes of status changes and bookings burst against a real server
 * process, which is killed with SIGKILL at a random moment and started again, round after round. The receiver
 * answers 500 to one message in ten (retries). At the end, once the worker has nothing left to send:
 * - every committed change (its timeline event, written in the same transaction) has exactly one delivery
 *   row, and the other way round (none for a change that rolled back with the kill);
 * - every delivery reached the receiver with a 2xx at least once (none lost), and the receiver saw no
 *   message id without a delivery row;
 * - per request the first successful receipts came in the order of the changes.
 */
import { startReceiver } from '../api/webhookReceiver.js';
import { handShipment, shipmentLists } from '../api/requestsFixtures.js';
import { freePort, freshDatabase, startServer, type ServerProcess } from './server.js';
import { call, rng } from './workload.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Fast polling and retries, so a run settles in seconds. */
const ENV = { ORPHAN_FILE_MINUTES: '0', WEBHOOK_POLL_MS: '100', WEBHOOK_BACKOFF_MS: '100', WEBHOOK_TIMEOUT_MS: '1000' };
const STATUSES = [1, 3, 4, 5, 6, 7];

export interface WebhookFaultSummary {
  rounds: number;
  calls: Record<string, number>;
  committedChanges: number;
  deliveries: number;
  delivered: number;
  lost: number;
  /** deliveries without a committed change, or a change without its delivery */
  unmatched: number;
  /** message ids the receiver saw that no delivery row has (a rolled-back change sent) */
  phantom: number;
  /** messages received with a 2xx more than once (a kill between the send and its record) */
  duplicates: number;
  outOfOrder: number;
  /** answers 500 the receiver gave (each retried) */
  refusedByReceiver: number;
  problems: string[];
}

export async function webhookFaultRun(
  kind: 'sqlite' | 'postgres',
  rounds: number,
  seed: number,
  pgUrl?: string,
  log = console.log,
): Promise<WebhookFaultSummary> {
  const random = rng(seed);
  const receiver = await startReceiver(() => (random.next() < 0.1 ? 500 : 204));
  const fdb = await freshDatabase(kind, pgUrl);
  const port = await freePort();
  let server: ServerProcess = await startServer(fdb, port, ENV);
  const calls: Record<string, number> = {};
  const problems: string[] = [];
  try {
    const login = async (email: string) => (await call(server.base, 'POST', '/visitor/login', { json: { email, password: 'demo1234' } })).body.token as string;
    const [admin, carrier, enduser] = [await login('admin@portal.demo'), await login('carrier@portal.demo'), await login('enduser@portal.demo')];
    const hook = await call(server.base, 'POST', '/company/webhooks/store', {
      token: carrier,
      json: { url: receiver.url, events: ['transport_request.created', 'transport_request.status_changed'] },
    });
    if (hook.status !== 200) throw new Error(`webhook store: ${hook.status} ${JSON.stringify(hook.body)}`);
    const endpointId = hook.body.data.id as number;
    let db = await fdb.open();
    const acme = Number((await db.db.selectFrom('webhook_endpoints').select('company_id').where('id', '=', endpointId).executeTakeFirstOrThrow()).company_id);
    const ids = (await db.db.selectFrom('transport_requests').select('id').where('carrier_id', '=', acme).execute()).map((r) => Number(r.id));
    const since = Number(
      (
        await db.db
          .selectFrom('transport_request_events')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirstOrThrow()
      ).m ?? 0,
    );
    await db.destroy();
    if (!ids.length) throw new Error('the demo carrier has no requests');

    for (let round = 1; round <= rounds; round++) {
      let stop = false;
      const lane = async () => {
        while (!stop) {
          const booking = random.next() < 0.15;
          const r = booking
            ? await call(server.base, 'POST', '/enduser/transport_requests/newRequest', {
                token: enduser,
                json: { ...shipmentLists([handShipment(0)]), notes: 'webhook fault run' },
              }).catch(() => null)
            : await call(server.base, 'POST', '/company/transport_requests/updateTransportRequestStatus', {
                token: admin,
                json: { id: ids[random.int(0, ids.length - 1)], transport_request_status_id: STATUSES[random.int(0, STATUSES.length - 1)], note: 'fault run' },
              }).catch(() => null);
          const what = r === null ? 'lost' : r.status === 200 ? 'acked' : `${r.status}`;
          calls[what] = (calls[what] ?? 0) + 1;
          if (booking && r?.status === 200) ids.push(r.body.data.id);
          if (r === null) return;
        }
      };
      const lanes = [lane(), lane(), lane(), lane()];
      const delay = Math.round(200 + random.next() * 1300);
      await sleep(delay);
      await server.kill9();
      stop = true;
      await Promise.all(lanes);
      server = await startServer(fdb, port, ENV);
      log(
        `webhooks round ${String(round).padStart(2)}  killed at ${String(delay).padStart(4)} ms  calls so far: ${JSON.stringify(calls)}  receipts ${receiver.received.length}`,
      );
    }

    // Let the worker finish: no pending delivery (a killed claim's lease expires after 2 × timeout + 5 s).
    db = await fdb.open();
    const pendingCount = async () =>
      Number(
        (
          await db.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('delivered_at', 'is', null)
            .where('gave_up_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const deadline = Date.now() + 90_000;
    while ((await pendingCount()) > 0 && Date.now() < deadline) await sleep(200);
    const stillPending = await pendingCount();
    if (stillPending) problems.push(`${stillPending} deliveries still pending 90 s after the last round`);

    const events = await db.db
      .selectFrom('transport_request_events as e')
      .innerJoin('transport_requests as tr', 'tr.id', 'e.transport_request_id')
      .select(['e.id', 'e.transport_request_id', 'e.event', 'e.status_id'])
      .where('tr.carrier_id', '=', acme)
      .where('e.id', '>', since)
      .where('e.event', 'in', ['created', 'status_changed'])
      .orderBy('e.id')
      .execute();
    const deliveries = await db.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id').execute();
    await db.destroy();

    // committed changes ↔ delivery rows, per request, in order
    const key = (request: number, type: string, status: number) => `${request}:${type}:${status}`;
    const perRequest = (rows: Array<{ request: number; k: string }>) =>
      rows.reduce<Map<number, string[]>>((m, r) => m.set(r.request, [...(m.get(r.request) ?? []), r.k]), new Map());
    const changes = perRequest(
      events.map((e) => ({
        request: Number(e.transport_request_id),
        k: key(Number(e.transport_request_id), e.event === 'created' ? 'transport_request.created' : 'transport_request.status_changed', e.status_id),
      })),
    );
    const rows = perRequest(
      deliveries.map((d) => ({
        request: Number(d.transport_request_id),
        k: key(Number(d.transport_request_id), d.event_type, JSON.parse(d.payload).data.transport_request_status_id),
      })),
    );
    let unmatched = 0;
    for (const request of new Set([...changes.keys(), ...rows.keys()])) {
      const a = changes.get(request) ?? [];
      const b = rows.get(request) ?? [];
      if (a.join('|') !== b.join('|')) {
        unmatched += Math.abs(a.length - b.length) || 1;
        problems.push(`request ${request}: changes ${a.join(', ')} but deliveries ${b.join(', ')}`);
      }
    }

    // what the receiver got: 2xx receipts per message id, in order
    const ok = receiver.received.filter((_, i) => receiver.answers[i] !== 500);
    const okIds = ok.map((m) => String(m.headers['webhook-id']));
    const byId = new Map(deliveries.map((d) => [d.event_id, d]));
    const seen = new Map<string, number>();
    for (const id of okIds) seen.set(id, (seen.get(id) ?? 0) + 1);
    const lost = deliveries.filter((d) => !seen.has(d.event_id));
    for (const d of lost.slice(0, 10)) problems.push(`delivery ${d.id} (${d.event_type}, request ${d.transport_request_id}) never received`);
    const phantom = [...new Set(receiver.received.map((m) => String(m.headers['webhook-id'])))].filter((id) => !byId.has(id));
    for (const id of phantom.slice(0, 10)) problems.push(`the receiver got ${id}, which no delivery row has`);
    let outOfOrder = 0;
    const lastOf = new Map<number, number>();
    const firsts = new Set<string>();
    for (const id of okIds) {
      if (firsts.has(id) || !byId.has(id)) continue;
      firsts.add(id);
      const d = byId.get(id)!;
      const request = Number(d.transport_request_id);
      if ((lastOf.get(request) ?? 0) > Number(d.id)) {
        outOfOrder++;
        problems.push(`request ${request}: delivery ${d.id} arrived after a later one`);
      }
      lastOf.set(request, Math.max(lastOf.get(request) ?? 0, Number(d.id)));
    }
    return {
      rounds,
      calls,
      committedChanges: events.length,
      deliveries: deliveries.length,
      delivered: deliveries.filter((d) => d.delivered_at).length,
      lost: lost.length,
      unmatched,
      phantom: phantom.length,
      duplicates: [...seen.values()].filter((n) => n > 1).length,
      outOfOrder,
      refusedByReceiver: receiver.answers.filter((a) => a === 500).length,
      problems,
    };
  } finally {
    await server.kill9();
    await receiver.close();
    await fdb.drop();
  }
}
