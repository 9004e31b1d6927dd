/**
 * Every write the servers acknowledged (a 2xx answer carrying the new row's id), with what was sent,
 * and the check afterwards: each one read back from the database with Kysely, its content compared.
 */
import type { Db } from '../../server/db/index.js';

export interface RequestWrite {
  id: number;
  userId: number;
  companyId: number;
  carrierId: number;
  notes: string;
  shipments: Array<{ ref: string; pickup: { postal: string; city: string }; delivery: { postal: string; city: string }; units?: number; weight?: number }>;
  quote?: { service: string; cls: string | null; cost: number; fee: number; pallets: number };
  documents: number;
}
export interface TicketWrite {
  id: number;
  companyId: number;
  userId: number;
  subject: string;
  message: string;
}
export interface MessageWrite {
  id: number;
  chatId: number;
  userId: number;
  side: 'enduser' | 'carrier';
  body: string;
}

export class Ledger {
  requests: RequestWrite[] = [];
  tickets: TicketWrite[] = [];
  messages: MessageWrite[] = [];
  /** open tickets by end-user company, newest last (the chat operations pick from these) */
  ticketsOf = new Map<number, number[]>();
  /** tickets whose last acknowledged message is the end user's (the carrier answers these first) */
  awaitingAnswer = new Set<number>();

  ticket(t: TicketWrite) {
    this.tickets.push(t);
    const list = this.ticketsOf.get(t.companyId) ?? [];
    list.push(t.id);
    this.ticketsOf.set(t.companyId, list);
    this.awaitingAnswer.add(t.id);
  }

  message(m: MessageWrite) {
    this.messages.push(m);
    if (m.side === 'enduser') this.awaitingAnswer.add(m.chatId);
    else this.awaitingAnswer.delete(m.chatId);
  }

  get total() {
    return this.requests.length + this.tickets.length + this.messages.length;
  }
}

const chunks = <T>(list: T[], n = 400) => Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/** The acknowledged writes that are missing or differ in the database, each described in one line. */
export async function verify(db: Db, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const bad = (what: string) => {
    if (problems.length < 1000) problems.push(what);
  };

  for (const part of chunks(ledger.requests)) {
    const ids = part.map((r) => r.id);
    const rows = new Map((await db.selectFrom('transport_requests').selectAll().where('id', 'in', ids).execute()).map((r) => [Number(r.id), r]));
    const shipments = await db.selectFrom('shipments').selectAll().where('transport_request_id', 'in', ids).orderBy('position').execute();
    const sIds = shipments.map((s) => s.id);
    const addresses = sIds.length ? await db.selectFrom('shipment_addresses').selectAll().where('shipment_id', 'in', sIds).execute() : [];
    const details = sIds.length ? await db.selectFrom('shipment_details').selectAll().where('shipment_id', 'in', sIds).orderBy('position').execute() : [];
    const docs = await db.selectFrom('transport_request_documents').select(['transport_request_id']).where('transport_request_id', 'in', ids).execute();
    for (const w of part) {
      const r = rows.get(w.id);
      if (!r) {
        bad(`request ${w.id}: missing`);
        continue;
      }
      const where = `request ${w.id}`;
      if (Number(r.user_id) !== w.userId || Number(r.enduser_company_id) !== w.companyId || Number(r.carrier_id) !== w.carrierId)
        bad(`${where}: owner differs`);
      if (r.notes !== w.notes) bad(`${where}: notes ${JSON.stringify(r.notes)} ≠ ${JSON.stringify(w.notes)}`);
      if (w.quote) {
        const q = w.quote;
        if (r.service !== q.service || Number(r.cost) !== q.cost || Number(r.admin_fees) !== q.fee)
          bad(`${where}: quote ${r.service} ${r.cost}+${r.admin_fees} ≠ ${q.service} ${q.cost}+${q.fee}`);
        if (q.cls && r.service_class !== q.cls) bad(`${where}: class ${r.service_class} ≠ ${q.cls}`);
      } else if (r.cost !== null) bad(`${where}: a request by hand has a cost`);
      const mine = shipments.filter((s) => Number(s.transport_request_id) === w.id);
      if (mine.length !== w.shipments.length) bad(`${where}: ${mine.length} shipments ≠ ${w.shipments.length}`);
      for (const [i, s] of mine.entries()) {
        const e = w.shipments[i];
        if (!e) break;
        if (s.shipper_reference !== e.ref) bad(`${where}: shipment ${i} reference ${s.shipper_reference} ≠ ${e.ref}`);
        for (const kind of ['pickup', 'delivery'] as const) {
          const a = addresses.find((x) => x.shipment_id === s.id && x.kind === kind);
          if (!a || a.postal_code !== e[kind].postal || a.city !== e[kind].city)
            bad(`${where}: shipment ${i} ${kind} ${a?.postal_code} ${a?.city} ≠ ${e[kind].postal} ${e[kind].city}`);
        }
        const d = details.filter((x) => x.shipment_id === s.id);
        if (w.quote?.service === 'palletExpress') {
          if (d.length !== w.quote.pallets) bad(`${where}: ${d.length} pallets ≠ ${w.quote.pallets}`);
        } else if (e.units !== undefined && (d.length !== 1 || Number(d[0].total_units) !== e.units || Number(d[0].gross_weight) !== e.weight)) {
          bad(`${where}: goods ${d[0]?.total_units} units ${d[0]?.gross_weight} kg ≠ ${e.units} units ${e.weight} kg`);
        }
      }
      const n = docs.filter((x) => Number(x.transport_request_id) === w.id).length;
      if (n !== w.documents) bad(`${where}: ${n} documents ≠ ${w.documents}`);
    }
  }

  for (const part of chunks(ledger.tickets)) {
    const ids = part.map((t) => t.id);
    const rows = new Map((await db.selectFrom('tickets').selectAll().where('id', 'in', ids).execute()).map((r) => [Number(r.id), r]));
    const first = new Map<number, string>();
    const msgs = await db.selectFrom('chat_messages').select(['chat_id', 'body', 'id']).where('chat_id', 'in', ids).orderBy('id').execute();
    for (const m of msgs) if (!first.has(Number(m.chat_id))) first.set(Number(m.chat_id), m.body);
    for (const w of part) {
      const r = rows.get(w.id);
      if (!r) bad(`ticket ${w.id}: missing`);
      else if (r.subject !== w.subject || Number(r.enduser_company_id) !== w.companyId || Number(r.enduser_user_id) !== w.userId)
        bad(`ticket ${w.id}: differs`);
      else if (first.get(w.id) !== w.message) bad(`ticket ${w.id}: first message ${JSON.stringify(first.get(w.id))} ≠ ${JSON.stringify(w.message)}`);
    }
  }

  for (const part of chunks(ledger.messages)) {
    const rows = new Map(
      (
        await db
          .selectFrom('chat_messages')
          .selectAll()
          .where(
            'id',
            'in',
            part.map((m) => m.id),
          )
          .execute()
      ).map((r) => [Number(r.id), r]),
    );
    for (const w of part) {
      const r = rows.get(w.id);
      if (!r) bad(`message ${w.id}: missing`);
      else if (r.body !== w.body || Number(r.chat_id) !== w.chatId || Number(r.sender_user_id) !== w.userId || r.sender_side !== w.side) {
        bad(`message ${w.id}: ${JSON.stringify([r.chat_id, r.sender_side, r.body])} ≠ ${JSON.stringify([w.chatId, w.side, w.body])}`);
      }
    }
  }
  return problems;
}
