import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { createWorld, insertRequest, PASSWORD, type World } from './requestsFixtures.js';
import { pdfText } from './pdfText.js';
import { isSscc } from '../../model/sscc.js';
import { trackingPath } from '../../model/tracking.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';

const has = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
/** The decoding tools (Debian zbar-tools and poppler-utils): .ci/run installs them; only a machine without them and without REQUIRE_BROWSER skips. */
const TOOLS = has('zbarimg') && has('pdftoppm');
if (!TOOLS && process.env.REQUIRE_BROWSER) throw new Error('zbarimg and pdftoppm are required (apt-get install zbar-tools poppler-utils)');
const decodeIt = TOOLS ? it : it.skip;
if (!TOOLS) console.warn('palletLabels.test.ts: zbarimg or pdftoppm missing, the barcode decoding test is skipped (apt-get install zbar-tools poppler-utils)');

/** Every symbol zbar reads on the pages of a PDF rendered at 300 dpi, per page, as `TYPE:data`. */
function decodePdf(pdf: Buffer): string[][] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
  try {
    fs.writeFileSync(path.join(dir, 'l.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '300', '-png', path.join(dir, 'l.pdf'), path.join(dir, 'p')]);
    const pages = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort();
    return pages.map((f) => {
      let out = '';
      try {
        out = execFileSync('zbarimg', ['-q', path.join(dir, f)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (e) {
        // zbarimg exits 4 when it finds nothing: an empty list, the test says so
        out = (e as { stdout?: string }).stdout ?? '';
      }
      return out.split('\n').filter(Boolean);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describeEachDb('pallet labels (GS1-128 SSCC)', (p) => {
  let w: World;
  let carrierUser: string;
  const db = () => p().db.db;

  /** A request of a carrier with its shipments' pallets (weights), inserted as the booking stores it, in a status (3 confirmed). */
  const request = async (carrier: number, customer: number, pallets: Array<string | null>[], status = 3) => {
    const id = await insertRequest(p(), { carrier_id: carrier, enduser_company_id: customer, status, cost: 10000, admin_fees: 0, created_at: nowIso() });
    for (const [position, weights] of pallets.entries()) {
      const s = await db()
        .insertInto('shipments')
        .values({
          transport_request_id: id,
          position,
          transport_request_type_id: 1,
          transport_class: 'SILVER',
          shipper_reference: `RIF-${position + 1}`,
          consignee_reference: `ORD-${position + 1}`,
          consignee_email: null,
          adr: 0,
          tail_lift: 0,
          pickup_date: null,
          pickup_time_from: null,
          pickup_time_to: null,
          pickup_notes: null,
          delivery_date: null,
          delivery_time_from: null,
          delivery_time_to: null,
          delivery_notes: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const place = (kind: 'pickup' | 'delivery') =>
        kind === 'pickup'
          ? { location_name: 'Magazzino Città Più', address: 'Via Emilia 120', postal_code: '40133', city: 'Bologna', province: 'BO' }
          : { location_name: `Négoce Früh & Søn ${position + 1}`, address: 'Via Appia 5', postal_code: `0018${position}`, city: 'Roma', province: 'RM' };
      await db()
        .insertInto('shipment_addresses')
        .values((['pickup', 'delivery'] as const).map((kind) => ({ shipment_id: Number(s.id), kind, country_id: w.it, ...place(kind) })))
        .execute();
      if (weights.length) {
        await db()
          .insertInto('shipment_details')
          .values(
            weights.map((pallet_weight, i) => ({
              shipment_id: Number(s.id),
              position: i,
              shipment_type_id: 1,
              pallet_weight,
              pallet_width: '120',
              pallet_length: '80',
              pallet_height: '100',
              pallet_type: null,
              total_units: null,
              gross_weight: null,
              volume: null,
              volume_type: null,
            })),
          )
          .execute();
      }
    }
    return id;
  };
  const stored = async (id: number) =>
    (
      await db()
        .selectFrom('shipment_details as d')
        .innerJoin('shipments as s', 's.id', 'd.shipment_id')
        .select('d.sscc')
        .where('s.transport_request_id', '=', id)
        .orderBy('s.position')
        .orderBy('d.position')
        .execute()
    ).map((r) => r.sscc);

  /** A download as bytes. */
  const raw = async (url: string, token: string, lang = 'it') => {
    const res = await p().app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { 'x-api-password': p().config.apiPassword, 'accept-language': lang, authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, text: res.payload, json: () => res.json() };
  };
  const setPrefix = (token: string, prefix: string, lang = 'it') =>
    p().api('POST', '/company/label_settings/update', { token, lang, body: { gs1_company_prefix: prefix } });

  beforeAll(async () => {
    w = await createWorld(p());
    await db()
      .insertInto('users')
      .values({
        role_id: 5,
        company_id: w.beta,
        first_name: 'Luca',
        last_name: 'Magazzino',
        email: 'dock@beta.test',
        password_hash: await hashPassword(PASSWORD),
        status_id: 1,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    carrierUser = await p().login('dock@beta.test', PASSWORD);
  });

  describe('the carrier setting', () => {
    it('starts empty; the main account sets 7–10 digits; a carrier user only reads it; bad or taken prefixes are 422 in the caller’s language', async () => {
      const first = await p().api('GET', '/company/label_settings', { token: w.tokens.acme });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ gs1_company_prefix: null, extension_digit: 0, last_serial: 0, max_serial: null, can_edit: true });

      for (const bad of ['123456', '12345678901', '12 34567', '80012a45', '']) {
        const r = await setPrefix(w.tokens.beta, bad);
        expect(r.status, bad).toBe(422);
        expect(r.body.errors.gs1_company_prefix).toEqual(['Il prefisso aziendale GS1 è di 7-10 cifre, senza altri caratteri (come assegnato da GS1).']);
      }
      expect((await setPrefix(w.tokens.beta, 'x', 'en')).body.errors.gs1_company_prefix[0]).toMatch(/^The GS1 company prefix is 7 to 10 digits/);
      expect(await db().selectFrom('label_settings').selectAll().execute()).toEqual([]);

      const readOnly = await p().api('GET', '/company/label_settings', { token: carrierUser });
      expect(readOnly.body.data.can_edit).toBe(false);
      const refused = await setPrefix(carrierUser, '8012345');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Solo l’account principale del vettore può cambiare il prefisso aziendale GS1.');

      const ok = await setPrefix(w.tokens.beta, '8012345');
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe('Impostazioni delle etichette salvate.');
      expect(ok.body.data).toEqual({ gs1_company_prefix: '8012345', extension_digit: 0, last_serial: 0, max_serial: 999_999_999, can_edit: true });
      const audit = await db().selectFrom('audit_log').selectAll().where('resource', '=', 'label_settings').execute();
      expect(audit).toHaveLength(1);

      // another company may not take it; end users and the support kind have no such setting
      const taken = await setPrefix(w.tokens.acme, '8012345');
      expect(taken.status).toBe(422);
      expect(taken.body.errors.gs1_company_prefix).toEqual(['Questo prefisso aziendale GS1 appartiene a un’altra azienda.']);
      expect((await p().api('GET', '/company/label_settings', { token: w.tokens.rossi })).status).toBe(403);
    });

    it('is the admin’s on a carrier company (404 for none, 422 for an end-user company)', async () => {
      const r = await p().api('POST', `/admin/label_settings/update/${w.acme}`, { token: w.tokens.admin, body: { gs1_company_prefix: '123456789' } });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ gs1_company_prefix: '123456789', max_serial: 9_999_999, can_edit: true });
      expect((await p().api('GET', `/admin/label_settings/${w.acme}`, { token: w.tokens.admin })).body.data.gs1_company_prefix).toBe('123456789');
      expect((await p().api('GET', `/admin/label_settings/999999`, { token: w.tokens.admin })).status).toBe(404);
      const eu = await p().api('GET', `/admin/label_settings/${w.rossi}`, { token: w.tokens.admin, lang: 'en' });
      expect(eu.status).toBe(422);
      expect(eu.body.message).toBe('Only carrier companies have pallet label settings.');
      expect((await p().api('GET', `/admin/label_settings/${w.acme}`, { token: w.tokens.acme })).status).toBe(403);
    });
  });

  describe('the labels', () => {
    it('are refused before confirmation, without pallets and without a prefix, saying so to each caller', async () => {
      const open = await request(w.beta, w.bianchi, [['300']], 1);
      const r = await raw(`/company/transport_requests/labels/${open}`, w.tokens.beta);
      expect(r.status).toBe(409);
      expect(r.json().message).toBe('Le etichette dei bancali si stampano quando la richiesta è confermata (ora è Aperta).');
      const units = await request(w.beta, w.bianchi, [[]]);
      expect((await raw(`/company/transport_requests/labels/${units}`, w.tokens.beta, 'en')).json().message).toBe(
        'This request has no pallets: labels are printed one per pallet.',
      );

      // a third carrier without a prefix
      const gamma = Number(
        (
          await db()
            .insertInto('companies')
            .values({
              legal_name: 'Gamma Cargo',
              company_role_id: 2,
              status_id: 1,
              is_inbound: 1,
              type: 'Customer',
              created_at: nowIso(),
              updated_at: nowIso(),
            } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
      const rossiGamma = await request(gamma, w.rossi, [['100']]);
      await db().updateTable('transport_requests').set({ carrier_id: gamma }).where('id', '=', rossiGamma).execute();
      const customer = await raw(`/enduser/transport_requests/labels/${rossiGamma}`, w.tokens.rossi);
      expect(customer.status).toBe(409);
      expect(customer.json().message).toBe(
        'Il vettore non ha ancora impostato il suo prefisso aziendale GS1: le etichette si potranno stampare quando lo avrà fatto.',
      );
      const admin = await raw(`/admin/transport_requests/labels/${rossiGamma}`, w.tokens.admin, 'fr');
      expect(admin.json().message).toBe(
        'Le transporteur Gamma Cargo n’a pas de préfixe d’entreprise GS1 : indiquez-le d’abord dans ses paramètres d’étiquettes.',
      );
      expect(await stored(rossiGamma)).toEqual([null]);
    });

    it('number the pallets once from the carrier’s counter: stable on reprint, unique across requests, each carrier its own', async () => {
      const a = await request(w.beta, w.bianchi, [['250', '1350.5'], ['80']]);
      const first = await raw(`/company/transport_requests/labels/${a}`, w.tokens.beta);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('application/pdf');
      expect(String(first.headers['content-disposition'])).toBe(`attachment; filename="etichette-${a}.pdf"; filename*=UTF-8''etichette-${a}.pdf`);
      // The file's name in the caller's language (lib/downloadNames.ts), the PDF's and the ZPL's.
      expect(String((await raw(`/company/transport_requests/labels/${a}`, w.tokens.beta, 'en')).headers['content-disposition'])).toContain(
        `filename="labels-${a}.pdf"`,
      );
      expect(String((await raw(`/company/transport_requests/labels/${a}?format=zpl`, w.tokens.beta, 'fr')).headers['content-disposition'])).toContain(
        `filename="etiquettes-${a}.zpl"`,
      );
      const ssccs = await stored(a);
      // extension 0, prefix 8012345, serials 1, 2, 3 (9 digits), check digit
      expect(ssccs.map((s) => s!.slice(0, 17))).toEqual(['08012345000000001', '08012345000000002', '08012345000000003']);
      for (const s of ssccs) expect(isSscc(s!)).toBe(true);
      const text = pdfText(first.bytes);
      for (const s of ssccs) expect(text).toContain(`(00) ${s}`);
      for (const s of [
        `Richiesta n. ${a}`,
        'Bancale 1 di 2',
        'Bancale 2 di 2',
        'Bancale 1 di 1',
        'Peso: 1.350,5 kg',
        'Magazzino Città Più',
        'Négoce Früh & Søn 2',
        'Beta Spedizioni S.p.A.',
      ]) {
        expect(text).toContain(s);
      }
      expect((first.bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBe(3);

      // a reprint, by the customer and the admin too, shows the same numbers and advances nothing
      const again = await raw(`/enduser/transport_requests/labels/${a}`, w.tokens.bianchi, 'en');
      expect(again.status).toBe(200);
      expect(String(again.headers['content-disposition'])).toContain(`filename="labels-${a}.pdf"`);
      expect(pdfText(again.bytes)).toContain('Pallet 2 of 2');
      expect((await raw(`/admin/transport_requests/labels/${a}`, w.tokens.admin)).status).toBe(200);
      expect(await stored(a)).toEqual(ssccs);

      // the next request continues the counter; another carrier counts on its own prefix
      const b = await request(w.beta, w.bianchi, [['10']]);
      await raw(`/enduser/transport_requests/labels/${b}`, w.tokens.bianchi);
      expect((await stored(b))[0]!.slice(0, 17)).toBe('08012345000000004');
      const c = await request(w.acme, w.rossi, [['10']]);
      expect((await raw(`/company/transport_requests/labels/${c}`, w.tokens.acme)).status).toBe(200);
      expect((await stored(c))[0]!.slice(0, 17)).toBe('01234567890000001');
      expect((await p().api('GET', '/company/label_settings', { token: w.tokens.beta })).body.data.last_serial).toBe(4);
    });

    it('give two first prints at once the same numbers, never two', async () => {
      const id = await request(w.beta, w.bianchi, [['100', '200', '300']]);
      const before = Number(
        (await db().selectFrom('label_settings').select('last_serial').where('company_id', '=', w.beta).executeTakeFirstOrThrow()).last_serial,
      );
      const prints = await Promise.all([
        raw(`/company/transport_requests/labels/${id}?format=zpl`, w.tokens.beta),
        raw(`/company/transport_requests/labels/${id}?format=zpl`, w.tokens.beta),
        raw(`/enduser/transport_requests/labels/${id}?format=zpl`, w.tokens.bianchi),
        raw(`/admin/transport_requests/labels/${id}?format=zpl`, w.tokens.admin),
      ]);
      const ssccs = await stored(id);
      expect(new Set(ssccs).size).toBe(3);
      for (const r of prints) {
        expect(r.status).toBe(200);
        // each answer holds exactly the stored numbers
        expect([...r.text.matchAll(/\^FD>;>800(\d{18})\^FS/g)].map((m) => m[1])).toEqual(ssccs);
      }
      // the losers rolled back: the counter moved by the three pallets only
      const after = Number(
        (await db().selectFrom('label_settings').select('last_serial').where('company_id', '=', w.beta).executeTakeFirstOrThrow()).last_serial,
      );
      expect(after - before).toBe(3);
      const all = (await db().selectFrom('shipment_details').select('sscc').where('sscc', 'is not', null).execute()).map((r) => r.sscc);
      expect(new Set(all).size).toBe(all.length);
    });

    it('say clearly when a long prefix has no serial left, and store nothing', async () => {
      await setPrefix(w.tokens.beta, '8012345678');
      await db().updateTable('label_settings').set({ last_serial: 999_998 }).where('company_id', '=', w.beta).execute();
      const id = await request(w.beta, w.bianchi, [['1', '2']]);
      const r = await raw(`/company/transport_requests/labels/${id}`, w.tokens.beta);
      expect(r.status).toBe(409);
      expect(r.json().message).toBe(
        'I numeri seriali SSCC del prefisso aziendale GS1 8012345678 sono esauriti (999999): imposta un nuovo prefisso GS1 in Impostazioni → Etichette bancali.',
      );
      expect(await stored(id)).toEqual([null, null]);
      const one = await request(w.beta, w.bianchi, [['1']]);
      expect((await raw(`/company/transport_requests/labels/${one}`, w.tokens.beta)).status).toBe(200);
      // the last serial a 10-digit prefix has: 999 999 (6 digits)
      const [last] = await stored(one);
      expect(last!.slice(0, 17)).toBe('08012345678999999');
      expect(isSscc(last!)).toBe(true);
      await setPrefix(w.tokens.beta, '8012345');
    });

    it('are 404 outside the caller’s scope, and open to an API key with requests:read', async () => {
      const id = await request(w.beta, w.bianchi, [['100']]);
      expect((await raw(`/company/transport_requests/labels/${id}`, w.tokens.acme)).status).toBe(404);
      expect((await raw(`/enduser/transport_requests/labels/${id}`, w.tokens.rossi)).status).toBe(404);
      expect((await raw(`/company/transport_requests/labels/999999`, w.tokens.beta)).status).toBe(404);
      expect((await raw(`/enduser/transport_requests/labels/${id}`, w.tokens.beta)).status).toBe(403);
      expect(await stored(id)).toEqual([null]);
      const key = await p().api('POST', '/enduser/api_keys/store', { token: w.tokens.bianchi, body: { name: 'WMS', scopes: ['requests:read'] } });
      expect(key.status).toBe(200);
      const byKey = await raw(`/enduser/transport_requests/labels/${id}?format=zpl`, key.body.data.key);
      expect(byKey.status).toBe(200);
      const quotesOnly = await p().api('POST', '/enduser/api_keys/store', { token: w.tokens.bianchi, body: { name: 'Q', scopes: ['quotes'] } });
      expect((await raw(`/enduser/transport_requests/labels/${id}`, quotesOnly.body.data.key)).status).toBe(403);
    });

    it('in ZPL: one ^XA…^XZ per pallet, 4 × 6 in at 203 dpi, the SSCC as GS1-128 (FNC1, AI 00) and the tracking QR', async () => {
      const id = await request(w.beta, w.bianchi, [['250', '300'], ['120']]);
      const r = await raw(`/company/transport_requests/labels/${id}?format=zpl`, w.tokens.beta);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(String(r.headers['content-disposition'])).toContain(`filename="etichette-${id}.zpl"`);
      const zpl = r.text;
      const labels = zpl.split('^XZ').filter((l) => l.trim());
      expect(labels).toHaveLength(3);
      expect(zpl.match(/\^XA/g)).toHaveLength(3);
      const ssccs = await stored(id);
      labels.forEach((l, i) => {
        expect(l).toContain('^PW812');
        expect(l).toContain('^LL1218');
        expect(l).toContain('^CI28');
        expect(l).toContain(`^BCN,220,N,N,N^FD>;>800${ssccs[i]}^FS`);
        expect(l).toContain(`^FD(00) ${ssccs[i]}^FS`);
        const url = p().config.publicUrl + trackingPath(String(id), i < 2 ? '00180' : '00181');
        expect(l).toContain(`^BQN,2,5^FH^FDMA,${url.replace(/_/g, '_5F')}^FS`);
        expect(l).toContain(`^FH^FDRichiesta n. ${id}^FS`);
      });
      expect(labels[1]).toContain('^FDBancale 2 di 2^FS');
      expect(labels[2]).toContain('^FDNégoce Früh & Søn 2^FS');
      // a name with ZPL's own characters cannot end a field: ^ ~ _ go as hex under ^FH
      await db().updateTable('shipment_addresses').set({ location_name: 'A^XZ~B_C' }).where('kind', '=', 'delivery').execute();
      const hostile = (await raw(`/company/transport_requests/labels/${id}?format=zpl`, w.tokens.beta)).text;
      expect(hostile).toContain('^FDA_5EXZ_7EB_5FC^FS');
      expect(hostile.match(/\^XZ/g)).toHaveLength(3);
      expect((await raw(`/company/transport_requests/labels/${id}?format=xml`, w.tokens.beta)).status).toBe(422);
    });

    decodeIt('carry a GS1-128 barcode that reads back as 00 + the SSCC, and a QR code with the tracking address', async () => {
      const id = await request(w.beta, w.bianchi, [['250', '300']]);
      const r = await raw(`/company/transport_requests/labels/${id}`, w.tokens.beta);
      expect(r.status).toBe(200);
      const ssccs = await stored(id);
      const pages = decodePdf(r.bytes);
      expect(pages).toHaveLength(2);
      const url = p().config.publicUrl + trackingPath(String(id), '00180');
      pages.forEach((symbols, i) => {
        // zbar 0.23 prints a GS1-128 as CODE-128 with the AI's digits and without the FNC1 or brackets
        expect(symbols).toContain(`CODE-128:00${ssccs[i]}`);
        expect(symbols).toContain(`QR-Code:${url}`);
      });
    });
  });
});
