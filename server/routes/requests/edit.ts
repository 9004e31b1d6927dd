import type { App } from '../../lib/typed.js';
import { ApiError, conflict, invalid, notFound } from '../../lib/errors.js';
import { nowIso } from '../../lib/tokens.js';
import { romeDate } from '../../lib/romeTime.js';
import { NEEDS_PRICE } from '../../repositories/requestStatus.js';
import { STATUS, transportRequestsRepo } from '../../repositories/transportRequests.js';
import { Problems, SHIPMENT_FIELDS, amountField, parseShipments } from './payload.js';
import { present } from '../../lib/presentRequest.js';
import { requestAnswer } from '../../lib/requestAnswer.js';
import { Type } from 'typebox';
import { diff } from '../../repositories/auditLog.js';
import { changeRequest } from '../../lib/requestEvents/change.js';
import { actorOf } from '../../lib/requestEvents/record.js';
import { writeAnswer } from '../../lib/answers.js';
import type { NewEvent } from '../../repositories/requestEvents.js';

const amount = { type: 'string', maxLength: 16 } as const;
const ids = { type: 'array', maxItems: 20, items: { type: 'integer', minimum: 1 } } as const;
const optText = (max: number) => ({ type: 'string', maxLength: max }) as const;

/** The update payload (calculator document §3 "Transport request update payload"). */
const updateBody = {
  type: 'object',
  additionalProperties: false,
  required: ['tr_id'],
  properties: {
    tr_id: { type: 'integer', minimum: 1 },
    company: optText(150),
    firstname: optText(100),
    lastname: optText(100),
    email: optText(254),
    phone: optText(30),
    status_id: { type: 'integer', enum: [1, 3, 4, 5, 6, 7] },
    price: amount,
    adminfee: amount,
    notes: optText(2000),
    reason: optText(1000),
    contact: optText(500),
    sid: ids,
    pid: ids,
    did: ids,
    sdid: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 12 } },
    shipment_type: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 12 } },
    ...SHIPMENT_FIELDS,
  },
} as const;

type UpdateBody = Record<string, any> & { tr_id: number; status_id?: number; sid?: number[]; pid?: number[]; did?: number[]; sdid?: string[] };

/**
 * POST /company/transport_requests/updateRequest (server.md §5). A carrier edits its own OP requests:
 * references, pickup and delivery, notes, reason, contact, price and admin fee; everything else it
 * sends (status, the visitor's contact details, goods, ADR and tail lift) is ignored, as its form does
 * not offer them. An admin edits any request, status included. An absent field is left unchanged; an
 * empty one is cleared (an empty price makes the request "to be quoted" again). Shipments change only
 * when `sid` lists them, and then each listed shipment needs its complete pickup and delivery blocks.
 */
export default async function requestEditRoutes(app: App) {
  const repo = transportRequestsRepo(app.db);

  app.post(
    '/company/transport_requests/updateRequest',
    {
      config: { policy: ['admin', 'carrier'] },
      schema: {
        tags: ['transport requests'],
        summary: 'Edits a transport request (a carrier its open ones; an admin any, status included).',
        consumes: ['multipart/form-data', 'application/json'],
        body: Type.Unsafe<UpdateBody>(updateBody),
        response: { 200: writeAnswer(requestAnswer) },
      },
    },
    async (req) => {
      const b = req.body;
      const u = req.user!;
      const admin = u.kind === 'admin';
      const current = await repo.findScoped(b.tr_id, admin ? { all: true } : { carrierId: u.company_id });
      if (!current) throw notFound();
      if (!admin && current.transport_request_status_id !== STATUS.OP) {
        throw conflict('requests.notOpen', { status: req.t(`status.${current.transport_request_status_id}`) });
      }

      const set: Record<string, unknown> = { updated_at: nowIso() };
      const clean = (v: unknown) => (typeof v === 'string' ? v.trim() || null : null);
      if (b.price !== undefined) set.cost = amountField(req, 'price', b.price);
      if (b.adminfee !== undefined) set.admin_fees = amountField(req, 'adminfee', b.adminfee);
      for (const f of ['notes', 'reason', 'contact'] as const) if (b[f] !== undefined) set[f] = clean(b[f]);
      if (admin) {
        for (const f of ['firstname', 'lastname', 'phone'] as const) if (b[f] !== undefined) set[f] = clean(b[f]);
        if (b.email !== undefined) {
          const email = clean(b.email);
          if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
            throw invalid({ email: { key: 'validation.format', params: { format: req.t('format.email') } } });
          set.email = email?.toLowerCase() ?? null;
        }
        if (b.company !== undefined) set.visitor_company = clean(b.company);
      }
      const newStatus = admin && b.status_id !== undefined && b.status_id !== current.transport_request_status_id ? b.status_id : null;
      if (newStatus !== null) {
        const cost = 'cost' in set ? set.cost : current.cost;
        if (NEEDS_PRICE.includes(newStatus) && cost === null) {
          throw new ApiError(422, 'requests.needsPrice', undefined, { status_id: [{ key: 'requests.needsPrice' }] });
        }
        set.transport_request_status_id = newStatus;
      }

      // Shipments: each listed id must be one of this request's, with its own address and goods rows.
      const [loaded] = await repo.load([current.id]);
      const sids = b.sid ?? [];
      const edits = sids.length ? await parseShipments(req, app.db, b, { mode: 'edit', today: romeDate() }) : [];
      const p = new Problems(req, sids.length);
      const targets = sids.map((sid, i) => {
        const s = loaded.shipments.find((x) => x.id === sid);
        if (!s) {
          p.add('sid', i, 'requests.wrongShipment');
          return null;
        }
        if (b.pid?.[i] !== undefined && b.pid[i] !== s.pickup?.id) p.add('pid', i, 'requests.wrongShipment');
        if (b.did?.[i] !== undefined && b.did[i] !== s.delivery?.id) p.add('did', i, 'requests.wrongShipment');
        const units = s.details.filter((d) => d.shipment_type_id === 2);
        const sdid = b.sdid?.[i] ? Number(b.sdid[i]) : units[0]?.id;
        const detail = units.find((d) => d.id === sdid);
        if (b.sdid?.[i] && !detail) p.add('sdid', i, 'requests.wrongShipment');
        return { shipment: s, detail };
      });
      p.throwIfAny();

      // The timeline (docs/request-documents.md): a new price or fee is `repriced`, other fields or
      // shipments `edited`, a new status `status_changed`; an edit that changes nothing records nothing.
      const { updated_at: _at, ...changed } = set;
      const changes = diff(current as Record<string, unknown>, changed);
      const status = newStatus ?? current.transport_request_status_id;
      const events: NewEvent[] = [];
      if (edits.length || Object.keys(changes).some((k) => !['cost', 'admin_fees', 'transport_request_status_id'].includes(k))) {
        events.push({ event: 'edited', status_id: status });
      }
      if ('cost' in changes || 'admin_fees' in changes) events.push({ event: 'repriced', status_id: status });
      if (newStatus !== null) events.push({ event: 'status_changed', status_id: newStatus });

      // The edit and its events, the one way (lib/requestEvents: timeline, webhooks, bell, the statistics' drop
      // and the live event commit with it; a new status's mails go after the commit).
      const applied = await changeRequest(app, async (trx, record) => {
        let q = trx.updateTable('transport_requests').set(set).where('id', '=', current.id);
        // The row must still be as read: a carrier's still OP, an admin's still in the status it saw.
        q = admin
          ? q.where('transport_request_status_id', '=', current.transport_request_status_id)
          : q.where('carrier_id', '=', u.company_id).where('transport_request_status_id', '=', STATUS.OP);
        if (Number((await q.executeTakeFirst()).numUpdatedRows) !== 1) return false;
        for (const [i, e] of edits.entries()) {
          const t = targets[i]!;
          await trx
            .updateTable('shipments')
            .set({
              shipper_reference: e.shipper_reference,
              consignee_reference: e.consignee_reference,
              // kept unless the edit sends the list (an older client's edit must not erase it)
              ...('consigneeemail' in b ? { consignee_email: e.consignee_email } : {}),
              pickup_date: e.pickup_date,
              pickup_time_from: e.pickup_time_from,
              pickup_time_to: e.pickup_time_to,
              pickup_notes: e.pickup_notes,
              delivery_date: e.delivery_date,
              delivery_time_from: e.delivery_time_from,
              delivery_time_to: e.delivery_time_to,
              delivery_notes: e.delivery_notes,
              ...(admin && b.adr !== undefined ? { adr: e.adr } : {}),
              ...(admin && b.taillift !== undefined ? { tail_lift: e.tail_lift } : {}),
            })
            .where('id', '=', t.shipment.id)
            .execute();
          for (const kind of ['pickup', 'delivery'] as const) {
            const a = e[kind];
            await trx
              .updateTable('shipment_addresses')
              .set({
                location_name: a.location_name,
                address: a.address,
                postal_code: a.postal_code,
                city: a.city,
                province: a.province,
                country_id: a.country_id,
              })
              .where('shipment_id', '=', t.shipment.id)
              .where('kind', '=', kind)
              .execute();
          }
          if (admin && e.goods && t.detail) {
            await trx
              .updateTable('shipment_details')
              .set({
                total_units: e.goods.units,
                gross_weight: e.goods.weight,
                volume: e.goods.volume,
                volume_type: e.goods.volumeType,
              })
              .where('id', '=', t.detail.id)
              .execute();
          }
        }
        await record(current, actorOf(req), events);
        return true;
      });
      if (!applied) {
        const now = await repo.findScoped(current.id, admin ? { all: true } : { carrierId: u.company_id });
        if (!now) throw notFound();
        if (admin) throw conflict();
        throw conflict('requests.notOpen', { status: req.t(`status.${now.transport_request_status_id}`) });
      }
      if (edits.length) changes.shipments = { before: null, after: edits.length };
      req.audit({
        action: 'update',
        resource: 'transport_requests',
        resource_id: current.id,
        company_id: current.enduser_company_id ?? current.carrier_id,
        tenant_id: current.carrier_id,
        changes,
      });
      const [row] = await repo.load([current.id]);
      return { status: true, message: req.t('requests.updated'), data: present(req, admin ? 'admin' : 'company', row) };
    },
  );
}
