/**
 * A typed integration of the portal's API (issue 33, docs/integrations.md "A typed client"): the types come
 * from the served OpenAPI document (`npx openapi-typescript http://host/api/docs -o api.d.ts`), the calls
 * go through openapi-fetch. Not one cast (`as`), no `any`, no `!` on answer data: every property read here
 * is declared by the document, so if the document loses one this file stops compiling.
 *
 * tests/api/generatedClient.test.ts generates `api.d.ts` beside a copy of this file, compiles it with
 * `--strict` and runs `runSample` against a test server. `./api` exists only there (the root tsconfig
 * leaves this folder out).
 */
import createClient from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { paths, webhooks } from './api';

/** A transport request as GET …/transport_requests/show/{id} answers it. */
/** The webhook a company receives when one of its requests changes status (the document's `webhooks`). */
type StatusChanged = webhooks['transport_request.status_changed']['post']['requestBody']['content']['application/json'];
/** The booking's fields (multipart/form-data; the document files are added by the serializer below). */
type Booking = paths['/api/v1/enduser/transport_requests/newRequest']['post']['requestBody']['content']['multipart/form-data'];

export interface SampleOptions {
  /** The portal, e.g. https://portal.example.com */
  baseUrl: string;
  /** The deployment's X-Api-Password. */
  apiPassword: string;
  enduser: { email: string; password: string };
  carrier: { email: string; password: string };
  /** A file to attach to the booking (a Blob: `new Blob([bytes], {type})`, or `fs.openAsBlob(path)`). */
  document: { name: string; file: Blob };
  /** Where this integration receives webhooks (http on loopback outside production). */
  webhookUrl: string;
  /** The next message the receiver got: its raw body and headers. */
  nextWebhook: () => Promise<{ body: string; headers: Record<string, string> }>;
}

export interface SampleResult {
  quoteTotal: number;
  requestId: number;
  pickupCity: string | null;
  statusName: string;
  statusWithKey: number;
  webhookType: string;
  webhookStatusName: string;
}

export async function runSample(o: SampleOptions): Promise<SampleResult> {
  const headers = { 'X-Api-Password': o.apiPassword };
  const visitor = createClient<paths>({ baseUrl: o.baseUrl, headers });

  // Sign in: the answer is `step: "signed_in"` with the token, or `step: "verify"` with a two-step challenge.
  async function signIn(who: { email: string; password: string }) {
    const { data, error } = await visitor.POST('/api/v1/visitor/login', { body: { email: who.email, password: who.password } });
    if (!data) throw new Error(`sign-in refused: ${error.message}`);
    if (data.step !== 'signed_in') throw new Error(`a second step is needed (POST /visitor/login/mfa with challenge ${data.challenge})`);
    return createClient<paths>({ baseUrl: o.baseUrl, headers: { ...headers, Authorization: `Bearer ${data.token}` } });
  }
  const enduser = await signIn(o.enduser);

  // A quote: 3 pallets Milano → Roma.
  const quote = await enduser.POST('/api/v1/visitor/costRequest', {
    body: {
      zone: 'national',
      service: 'palletExpress',
      originCountry: 'IT',
      originPostalCode: '20121',
      originLocality: 'Milano',
      originProvince: 'MI',
      destinationCountry: 'IT',
      destinationPostalCode: '00118',
      destinationLocality: 'Roma',
      destinationProvince: 'RM',
      palletWeight: [250, 480, 120],
      palletWidth: [120, 120, 80],
      palletLength: [80, 100, 120],
      palletHeight: [90, 140, 75],
    },
  });
  if (!quote.data) throw new Error(`quote refused: ${quote.error.message}`);
  // `outcome: 'not_priced'` is an answer too (no price for this route): the union's discriminator narrows it.
  if (quote.data.outcome !== 'priced') throw new Error(`no price: ${quote.data.message}`);
  const quoteTotal = quote.data.data.breakdown.reduce((sum, line) => sum + (line.amount ?? 0), 0);

  // A document type for the file.
  const types = await enduser.GET('/api/v1/visitor/document_types_list');
  if (!types.data) throw new Error(types.error.message);
  const docType = types.data.data[0];
  if (!docType) throw new Error('no document type');

  // Book a request entered by hand, with one document: multipart/form-data. Each shipment field is a list
  // (one entry per shipment, sent as `name[]`); `documents` holds the files (binary parts: Blobs).
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const booking: Booking = {
    shipperref: ['ERP-1001'],
    consigneeref: ['DEST-1'],
    adr: ['0'],
    taillift: ['0'],
    pickupdate: [tomorrow],
    pickuptimefrom: ['08:00'],
    pickuptimeto: ['12:00'],
    pickuplocationname: ['Magazzino'],
    pickupaddress: ['Via Emilia 120'],
    pickuppostalcode: ['40133'],
    pickupcity: ['Bologna'],
    pickupprovince: ['BO'],
    pickupcountry: ['IT'],
    deliverylocationname: ['Cliente'],
    deliveryaddress: ['Via Appia 5'],
    deliverypostalcode: ['00183'],
    deliverycity: ['Roma'],
    deliveryprovince: ['RM'],
    deliverycountry: ['IT'],
    units: ['3'],
    weight: ['450.5'],
    volume: ['2.4'],
    volumeType: ['CBM'],
    documents: [o.document.file],
    doctypes: [docType.id],
    notes: 'From the typed client',
  };
  const booked = await enduser.POST('/api/v1/enduser/transport_requests/newRequest', {
    body: booking,
    bodySerializer(body) {
      const form = new FormData();
      for (const [name, value] of Object.entries(body)) {
        if (value === undefined || value === null) continue;
        for (const item of Array.isArray(value) ? value : [value]) {
          const key = Array.isArray(value) ? `${name}[]` : name;
          if (item instanceof Blob) form.append(key, item, o.document.name);
          else form.append(key, String(item));
        }
      }
      return form;
    },
  });
  if (!booked.data) throw new Error(`booking refused: ${booked.error.message}`);
  // `outcome: 'not_booked'` (nothing stored: the price changed meanwhile) has no `data`: narrowing is required.
  if (booked.data.outcome !== 'booked') throw new Error(`not booked: ${booked.data.message}`);
  const requestId = booked.data.data.id;

  // The list, then the request itself: its pickup city and status name.
  const listed = await enduser.GET('/api/v1/enduser/transport_requests', { params: { query: { per_page: 10 } } });
  if (!listed.data) throw new Error(listed.error.message);
  if (!listed.data.transportRequests.data.some((r) => r.id === requestId)) throw new Error('the new request is not listed');
  const shown = await enduser.GET('/api/v1/enduser/transport_requests/show/{id}', { params: { path: { id: requestId } } });
  if (!shown.data) throw new Error(shown.error.message);
  const pickupCity = shown.data.data.shipment[0]?.shipment_addess_pick_up?.city ?? null;

  // A webhook endpoint of the end user's company, told when its requests change status.
  const endpoint = await enduser.POST('/api/v1/enduser/webhooks/store', { body: { url: o.webhookUrl, events: ['transport_request.status_changed'] } });
  if (!endpoint.data?.data) throw new Error(`no webhook endpoint: ${endpoint.error?.message ?? endpoint.data?.message}`);
  const secret = endpoint.data.data.secret;

  // The carrier answers the request: refused (4), with the note its customer reads. (Confirming, 3, needs a
  // price first: a request entered by hand is "to be quoted".)
  const carrier = await signIn(o.carrier);
  const moved = await carrier.POST('/api/v1/company/transport_requests/updateTransportRequestStatus', {
    body: { id: requestId, transport_request_status_id: 4, note: 'No truck free that day' },
  });
  if (!moved.data?.data) throw new Error(`status not changed: ${moved.error?.message ?? moved.data?.message}`);

  // An API key of the end user (read scope), and the same call with it instead of the session.
  const created = await enduser.POST('/api/v1/enduser/api_keys/store', { body: { name: 'Typed client', scopes: ['requests:read'] } });
  if (!created.data?.data) throw new Error(`no API key: ${created.error?.message ?? created.data?.message}`);
  const withKey = createClient<paths>({ baseUrl: o.baseUrl, headers: { ...headers, Authorization: `Bearer ${created.data.data.key}` } });
  const again = await withKey.GET('/api/v1/enduser/transport_requests/show/{id}', { params: { path: { id: requestId } } });
  if (!again.data) throw new Error(again.error.message);

  // The webhook, verified with its secret (Standard Webhooks). `verify` answers `unknown`: a type guard narrows
  // it to the payload the document's `webhooks` section declares.
  const message = await o.nextWebhook();
  const payload = new Webhook(secret).verify(message.body, message.headers);
  if (!isStatusChanged(payload)) throw new Error('not a status change');

  return {
    quoteTotal,
    requestId,
    pickupCity,
    statusName: shown.data.data.transport_request_status.name,
    statusWithKey: again.data.data.transport_request_status_id,
    webhookType: payload.type,
    webhookStatusName: payload.data.transport_request_status.name,
  };
}

/** A status-change message `{id, type, timestamp, data}` (its type and the fields read are checked). */
function isStatusChanged(v: unknown): v is StatusChanged {
  if (typeof v !== 'object' || v === null || !('type' in v) || v.type !== 'transport_request.status_changed' || !('data' in v)) return false;
  const data = v.data;
  if (typeof data !== 'object' || data === null || !('id' in data) || typeof data.id !== 'number') return false;
  if (!('transport_request_status' in data)) return false;
  const status = data.transport_request_status;
  return typeof status === 'object' && status !== null && 'name' in status && typeof status.name === 'string';
}
