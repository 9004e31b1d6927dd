import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { beforeAll, expect, it } from 'vitest';
import { LOG_REDACT } from '../../server/app.js';
import { hashToken } from '../../server/lib/tokens.js';
import { describeEachDb, inOneWindow } from './helpers.js';
import { createWorld, handShipment, insertRequest, multipart, shipmentLists, type World } from './requestsFixtures.js';

/** Issue 23: API keys per company, with scopes, their own rate limit, in the contract (docs/integrations.md). */
const STANDARD = {
  zone: 'national',
  service: 'standard',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00118',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  standardunits: 2,
  standardweight: 250,
  standardvolume: 1.2,
  standardvolumeType: 'CBM',
};

describeEachDb('API keys', (p) => {
  let w: World;
  let acmeRequest: number;
  let rossiRequest: number;
  let bianchiRequest: number;
  const keys: Record<string, { id: number; key: string }> = {};

  const store = async (token: string, ns: string, name: string, scopes: string[], lang = 'it') =>
    p().api('POST', `/${ns}/api_keys/store`, { token, lang, body: { name, scopes } });
  const make = async (token: string, ns: string, name: string, scopes: string[]) => {
    const r = await store(token, ns, name, scopes);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { id: r.body.data.id as number, key: r.body.data.key as string };
  };

  beforeAll(async () => {
    w = await createWorld(p());
    const at = new Date().toISOString();
    rossiRequest = await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, cost: 10000, admin_fees: 500, created_at: at });
    acmeRequest = rossiRequest;
    bianchiRequest = await insertRequest(p(), { carrier_id: w.beta, enduser_company_id: w.bianchi, cost: 20000, admin_fees: 500, created_at: at });
    keys.rossiRead = await make(w.tokens.rossi, 'enduser', 'ERP lettura', ['quotes', 'requests:read']);
    keys.rossiWrite = await make(w.tokens.rossi, 'enduser', 'WMS', ['requests:write']);
    keys.bianchi = await make(w.tokens.bianchi, 'enduser', 'Bianchi ERP', ['quotes', 'requests:read', 'requests:write']);
    keys.beta = await make(w.tokens.beta, 'company', 'Beta TMS', ['requests:read', 'requests:write']);
  });

  it('answers the key once: fpk_live_ and 288 random bits, stored only as its SHA-256', async () => {
    const r = await store(w.tokens.acme, 'company', 'Gestionale', ['quotes'], 'it');
    expect(r.body.message).toBe('Chiave API creata: copiala ora, non verrà più mostrata.');
    const { key, prefix, scopes, name } = r.body.data;
    expect(key).toMatch(/^fpk_live_[A-Za-z0-9_-]{48}$/);
    expect(prefix).toBe(key.slice(0, 13));
    expect([name, scopes]).toEqual(['Gestionale', ['quotes']]);
    const row = await p().db.db.selectFrom('api_keys').selectAll().where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
    expect(row.hash).toBe(hashToken(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(13));
    // the audit entry names the key, never holds it
    const audit = await p().db.db.selectFrom('audit_log').selectAll().where('resource', '=', 'api_keys').where('resource_id', '=', r.body.data.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    expect(audit[0].changes).toContain('Gestionale');
    expect(JSON.stringify(audit)).not.toContain(key.slice(13));
  });

  it('lists name, prefix, scopes, creator and last use, never the key or its hash, only of the own company', async () => {
    const r = await p().api('GET', '/enduser/api_keys', { token: w.tokens.rossi });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(keys.rossiRead.key.slice(13));
    expect(text).not.toContain(hashToken(keys.rossiRead.key));
    expect(r.body.data.map((k: any) => k.name).sort()).toEqual(['ERP lettura', 'WMS']);
    expect(r.body.data.find((k: any) => k.name === 'WMS')).toMatchObject({
      prefix: keys.rossiWrite.key.slice(0, 13),
      scopes: ['requests:write'],
      created_by_name: expect.any(String),
      revoked_at: null,
    });
    expect(r.body.scopes).toEqual(['quotes', 'requests:read', 'requests:write']);
    // another company's key cannot be revoked (404), and the end user's namespace is not the carrier's (403)
    expect((await p().api('GET', `/enduser/api_keys/destroy/${keys.bianchi.id}`, { token: w.tokens.rossi })).status).toBe(404);
    expect((await p().api('GET', '/company/api_keys', { token: w.tokens.rossi })).status).toBe(403);
    expect((await p().api('GET', '/enduser/api_keys', { token: w.tokens.admin })).status).toBe(403);
  });

  it('refuses a bad name or scope with a message in the caller’s language, storing nothing', async () => {
    const before = (await p().db.db.selectFrom('api_keys').select('id').execute()).length;
    const bad = await store(w.tokens.rossi, 'enduser', 'X', ['admin'], 'en');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).some((f) => f.startsWith('scopes'))).toBe(true);
    const empty = await store(w.tokens.rossi, 'enduser', '   ', ['quotes'], 'it');
    expect(empty.status).toBe(422);
    expect(empty.body.errors.name[0]).toMatch(/nome/);
    expect((await store(w.tokens.rossi, 'enduser', 'Nessuno', [], 'it')).status).toBe(422);
    expect((await p().db.db.selectFrom('api_keys').select('id').execute()).length).toBe(before);
  });

  it('works on the routes of its scopes, as its company: the same quote and requests as the user’s session', async () => {
    const bySession = await p().api('POST', '/visitor/costRequest', { token: w.tokens.rossi, body: STANDARD });
    const byKey = await p().api('POST', '/visitor/costRequest', { token: keys.rossiRead.key, body: STANDARD });
    expect(byKey.status).toBe(200);
    expect(byKey.body).toEqual(bySession.body);
    const list = await p().api('GET', '/enduser/transport_requests', { token: keys.rossiRead.key });
    expect(list.status).toBe(200);
    expect(list.body.transportRequests.data.map((r: any) => r.id)).toEqual([rossiRequest]);
    expect((await p().api('GET', `/enduser/transport_requests/show/${rossiRequest}`, { token: keys.rossiRead.key })).status).toBe(200);
    expect((await p().api('GET', '/visitor/transport_request_status_list', { token: keys.rossiRead.key })).status).toBe(200);
    const row = await p().db.db.selectFrom('api_keys').select('last_used_at').where('id', '=', keys.rossiRead.id).executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('answers 403 outside its scopes, in the caller’s language; account and key routes never take a key', async () => {
    const mp = await multipart({ ...shipmentLists([handShipment(0)]), notes: 'Da chiave' });
    const write = await p().api('POST', '/enduser/transport_requests/newRequest', { token: keys.rossiRead.key, payload: mp.payload, headers: mp.headers });
    expect(write.status).toBe(403);
    expect(write.body.message).toBe('Questa chiave API non può chiamare questa funzione: non rientra nei suoi ambiti.');
    const en = await p().api('GET', '/visitor/getProfile', { token: keys.bianchi.key, lang: 'en' });
    expect([en.status, en.body.message]).toEqual([403, 'This API key may not call this route: its scopes do not include it.']);
    for (const [method, url] of [
      ['GET', '/enduser/api_keys'],
      ['POST', '/enduser/api_keys/store'],
      ['GET', `/enduser/api_keys/destroy/${keys.bianchi.id}`],
      ['GET', '/visitor/sessions'],
      ['GET', '/visitor/settings'],
      ['GET', '/visitor/logout'],
    ] as const) {
      const r = await p().api(method, url, { token: keys.bianchi.key, body: method === 'POST' ? { name: 'x', scopes: ['quotes'] } : undefined });
      expect(r.status, `${method} ${url}`).toBe(403);
    }
    // the key of a carrier cannot do what the carrier kind may not (an end user's booking): the route's policy
    const carrier = await p().api('POST', '/enduser/transport_requests/newRequest', { token: keys.beta.key, payload: mp.payload, headers: mp.headers });
    expect(carrier.status).toBe(403);
  });

  it('reads the waybill with requests:read (docs/integrations.md), and never asks a live stream ticket (403)', async () => {
    const confirmed = await insertRequest(p(), {
      carrier_id: w.acme,
      enduser_company_id: w.rossi,
      status: 3,
      cost: 10000,
      admin_fees: 500,
      created_at: new Date().toISOString(),
    });
    const pdf = await p().app.inject({
      method: 'GET',
      url: `/api/v1/enduser/transport_requests/waybill/${confirmed}`,
      headers: { 'x-api-password': 'test-api-password', authorization: `Bearer ${keys.rossiRead.key}` },
    });
    expect([pdf.statusCode, pdf.headers['content-type'], pdf.rawPayload.subarray(0, 5).toString()]).toEqual([200, 'application/pdf', '%PDF-']);
    // a key without requests:read may not
    expect((await p().api('GET', `/enduser/transport_requests/waybill/${confirmed}`, { token: keys.rossiWrite.key })).status).toBe(403);
    // the stream is a signed-in tab's: no scope names its ticket or the stream, so a key gets 403 like any route outside its scopes
    for (const [method, url] of [
      ['POST', '/enduser/events/ticket'],
      ['GET', '/enduser/events'],
      ['POST', '/company/events/ticket'],
    ] as const) {
      const r = await p().api(method, url, { token: method === 'POST' && url.startsWith('/company') ? keys.beta.key : keys.bianchi.key, lang: 'en' });
      expect([r.status, r.body.message], url).toEqual([403, 'This API key may not call this route: its scopes do not include it.']);
    }
  });

  it('books with requests:write, and the audit log names the key and its company', async () => {
    // JSON, as docs/integrations.md shows it with curl
    const r = await p().api('POST', '/enduser/transport_requests/newRequest', {
      token: keys.rossiWrite.key,
      body: { ...shipmentLists([handShipment(0)]), notes: 'Prenotata dal WMS' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.enduser.id).toBe(w.rossi);
    const entry = await p()
      .db.db.selectFrom('audit_log')
      .selectAll()
      .where('resource', '=', 'transport_requests')
      .where('resource_id', '=', r.body.data.id)
      .executeTakeFirstOrThrow();
    expect([entry.user_name, entry.company_id, entry.tenant_id]).toEqual(['API key "WMS"', w.rossi, w.acme]);
    // the carrier kind's write scope moves its own requests, not another carrier's
    const status = (id: number) =>
      p().api('POST', '/company/transport_requests/updateTransportRequestStatus', { token: keys.beta.key, body: { id, transport_request_status_id: 3 } });
    expect((await status(acmeRequest)).status).toBe(404);
    expect((await status(bianchiRequest)).status).toBe(200);
  });

  it('keeps tenancy: a key of B never sees A’s requests', async () => {
    const list = await p().api('GET', '/company/transport_requests', { token: keys.beta.key });
    expect(list.body.transportRequests.data.map((r: any) => r.id)).toEqual([bianchiRequest]);
    expect((await p().api('GET', `/company/transport_requests/show/${acmeRequest}`, { token: keys.beta.key })).status).toBe(404);
    expect((await p().api('GET', `/enduser/transport_requests/show/${rossiRequest}`, { token: keys.bianchi.key })).status).toBe(404);
    const own = await p().api('GET', '/enduser/transport_requests', { token: keys.bianchi.key });
    expect(own.body.transportRequests.data.map((r: any) => r.id)).toEqual([bianchiRequest]);
  });

  it('stops at once when revoked, when its user is deactivated, and for an unknown key: 401 saying which', async () => {
    const k = await make(w.tokens.bianchi, 'enduser', 'Da revocare', ['requests:read']);
    expect((await p().api('GET', '/enduser/transport_requests', { token: k.key })).status).toBe(200);
    const revoked = await p().api('GET', `/enduser/api_keys/destroy/${k.id}`, { token: w.tokens.bianchi });
    expect([revoked.status, revoked.body.message]).toEqual([200, 'Chiave API Da revocare revocata.']);
    // the revoked key's answer says so, in the caller's language (issue 31)
    const said = {
      it: 'Questa chiave API è stata revocata: creane una nuova in Impostazioni → Chiavi API.',
      en: 'This API key has been revoked: create a new one under Settings → API keys.',
      fr: 'Cette clé API a été révoquée : créez-en une nouvelle dans Paramètres → Clés API.',
    };
    for (const [lang, message] of Object.entries(said)) {
      const r = await p().api('GET', '/enduser/transport_requests', { token: k.key, lang });
      expect([r.status, r.body.message]).toEqual([401, message]);
    }
    expect((await p().api('GET', `/enduser/api_keys/destroy/${k.id}`, { token: w.tokens.bianchi })).status).toBe(404);
    const listed = (await p().api('GET', '/enduser/api_keys', { token: w.tokens.bianchi })).body.data.find((x: any) => x.id === k.id);
    expect(listed.revoked_at).not.toBeNull();
    expect(
      (await p().db.db.selectFrom('audit_log').select('action').where('resource', '=', 'api_keys').where('resource_id', '=', k.id).execute()).map(
        (a) => a.action,
      ),
    ).toEqual(['create', 'delete']);

    const db = p().db.db;
    const user = await db.selectFrom('users').select('id').where('email', '=', 'mario@bianchi.test').executeTakeFirstOrThrow();
    await db.updateTable('users').set({ status_id: 0 }).where('id', '=', user.id).execute();
    const inactive = await p().api('GET', '/enduser/transport_requests', { token: keys.bianchi.key, lang: 'en' });
    expect([inactive.status, inactive.body.message]).toEqual([
      401,
      'The user who created this API key, or their company, is no longer active: the key works again once they are re-activated.',
    ]);
    await db.updateTable('users').set({ status_id: 1 }).where('id', '=', user.id).execute();
    expect((await p().api('GET', '/enduser/transport_requests', { token: keys.bianchi.key })).status).toBe(200);

    const unknown = await p().api('GET', '/enduser/transport_requests', { token: `fpk_live_${'A'.repeat(48)}`, lang: 'fr' });
    expect([unknown.status, unknown.body.message]).toEqual([401, 'Cette clé API n’est pas valide : vérifiez qu’elle a été copiée en entier.']);
  });

  it('documents the key scheme and the scopes of every route a key may call (/api/docs)', async () => {
    const doc = (await p().app.inject({ method: 'GET', url: '/api/docs' })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const op = doc.paths['/api/v1/visitor/costRequest'].post;
    expect(op['x-api-key-scopes']).toEqual(['quotes']);
    expect(op.security).toContainEqual({ apiPassword: [], apiKey: ['quotes'] });
    expect(doc.paths['/api/v1/enduser/transport_requests/newRequest'].post['x-api-key-scopes']).toEqual(['requests:write']);
    expect(doc.paths['/api/v1/enduser/api_keys'].get['x-api-key-scopes']).toBeUndefined();
  });

  it('keeps keys out of log lines (the authorization header is redacted)', () => {
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const log = pino({ redact: LOG_REDACT }, stream);
    log.info({ req: { headers: { authorization: `Bearer ${keys.beta.key}`, 'x-api-password': 'secret-pw' } } }, 'a request');
    expect(out).toContain('[Redacted]');
    expect(out).not.toContain(keys.beta.key);
    expect(out).not.toContain('secret-pw');
  });

  it('the stored key rows hold hashes only', async () => {
    const all = await sql<{ n: number }>`select count(*) as n from api_keys where hash like 'fpk_%'`.execute(p().db.db);
    expect(Number(all.rows[0].n)).toBe(0);
  });
});

describeEachDb(
  'API keys: the rate limit per key',
  (p) => {
    it('answers 429 with Retry-After past API_KEY_RATE_PER_MINUTE calls of one key, other keys unaffected', async () => {
      const token = await p().login('enduser@portal.demo');
      await inOneWindow(async (attempt) => {
        const key = async (name: string) =>
          (await p().api('POST', '/enduser/api_keys/store', { token, body: { name: `${name}${attempt}`, scopes: ['requests:read'] } })).body.data.key;
        const a = await key('A');
        const b = await key('B');
        for (let i = 0; i < 3; i++) expect((await p().api('GET', '/enduser/transport_requests', { token: a })).status).toBe(200);
        const over = await p().api('GET', '/enduser/transport_requests', { token: a, lang: 'it' });
        expect(over.status).toBe(429);
        const wait = Number(over.headers['retry-after']);
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(60);
        expect(over.body.message).toBe(`Questa chiave API ha fatto troppe chiamate: attendi ${wait} secondi.`);
        expect((await p().api('GET', '/enduser/transport_requests', { token: b })).status).toBe(200);
        // the user's own session is not the key's budget
        expect((await p().api('GET', '/enduser/transport_requests', { token })).status).toBe(200);
      });
    });
  },
  { apiKeyRatePerMinute: 3 },
);
