import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, DEMO, inOneWindow } from './helpers.js';
import { buildPricingWorld, setSetting, type PricingWorld } from './pricingFixtures.js';

const EXAMPLE = {
  zone: 'national',
  service: 'palletExpress',
  flow: 'OUT',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00118',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  palletWeight: [250],
  palletWidth: [120],
  palletLength: [80],
  palletHeight: [90],
};
const STANDARD = {
  ...EXAMPLE,
  service: 'standard',
  palletWeight: undefined,
  palletWidth: undefined,
  palletLength: undefined,
  palletHeight: undefined,
  standardunits: 1,
  standardweight: 250,
  standardvolume: 1,
  standardvolumeType: 'CBM',
  calculationRatio: 'CBM250',
};

/** Malformed requests (422), requests that cannot be priced (status false), tenancy (404) and the visitor throttle (429). */
describeEachDb(
  'cost request rules',
  (p) => {
    let w: PricingWorld;
    const tokens: Record<string, string> = {};
    const quote = (who: string, body: unknown, lang = 'it') => p().api('POST', '/visitor/costRequest', { token: tokens[who], body, lang });
    const visitor = async (body: unknown, ip: string, lang = 'it') => {
      const res = await p().app.inject({
        method: 'POST',
        url: '/api/v1/visitor/costRequest',
        remoteAddress: ip,
        headers: { 'x-api-password': p().config.apiPassword, 'accept-language': lang },
        payload: body as object,
      });
      return { status: res.statusCode, body: res.json() };
    };

    beforeAll(async () => {
      w = await buildPricingWorld(p().db.db, 'rules');
      tokens.carrier = await p().login(w.logins.carrier);
      tokens.endUser = await p().login(w.logins.endUser);
      tokens.support = await p().login(w.logins.support);
      tokens.admin = await p().login(DEMO.admin);
    });

    it('refuses zero or negative pallet values, and rows of different lengths, with field errors', async () => {
      const r = await quote('carrier', { ...EXAMPLE, palletWeight: [250, 0], palletWidth: [120, -1], palletLength: [80, 80], palletHeight: [90, 90] });
      expect(r.status).toBe(422);
      expect(r.body.errors['palletWeight.1']).toEqual(['Il campo peso del pallet deve essere maggiore di 0.']);
      expect(r.body.errors['palletWidth.1']).toEqual(['Il campo larghezza del pallet deve essere maggiore di 0.']);
      const m = await quote('carrier', { ...EXAMPLE, palletWeight: [250, 300], palletHeight: [90, 90] }, 'en');
      expect(m.status).toBe(422);
      expect(m.body.errors.palletWidth).toEqual(['Every pallet needs its weight, width, length and height (2 rows).']);
      const none = await quote('carrier', { ...EXAMPLE, palletWeight: [], palletWidth: [], palletLength: [], palletHeight: [] }, 'en');
      expect(none.status).toBe(422);
      expect(none.body.errors.palletWeight).toEqual(['The pallet weight field is required.']);
    });

    it('refuses an unknown ratio, a ratio of the other volume type, and a missing ratio for a carrier', async () => {
      const unknown = await quote('carrier', { ...STANDARD, calculationRatio: 'CBM275' });
      expect(unknown.status).toBe(422);
      expect(Object.keys(unknown.body.errors)).toEqual(['calculationRatio']);
      const mismatch = await quote('carrier', { ...STANDARD, calculationRatio: 'LM1500' }, 'en');
      expect(mismatch.body.errors.calculationRatio).toEqual(['The ratio LM1500 does not match the volume type CBM.']);
      const missing = await quote('carrier', { ...STANDARD, calculationRatio: undefined }, 'en');
      expect(missing.body.errors.calculationRatio).toEqual(['The calculation ratio field is required.']);
      const goods = await quote('endUser', { ...STANDARD, standardweight: undefined, standardvolumeType: undefined }, 'en');
      expect(goods.status).toBe(422);
      expect(Object.keys(goods.body.errors).sort()).toEqual(['standardvolumeType', 'standardweight']);
      const zeroWeight = await quote('endUser', { ...STANDARD, standardweight: 0 });
      expect(zeroWeight.body.errors.standardweight).toBeDefined();
    });

    it('checks places: province sigla, a city in another province, countries as ISO codes in any case', async () => {
      const prov = await quote('endUser', { ...EXAMPLE, destinationProvince: 'XX' }, 'en');
      expect(prov.status).toBe(422);
      expect(prov.body.errors.destinationProvince).toEqual(['"XX" is not an Italian province (use its code, e.g. MI, RM).']);
      const city = await quote('endUser', { ...EXAMPLE, destinationProvince: 'MI' }, 'en');
      expect(city.body.errors.destinationLocality).toEqual(['Roma is in RM.']);
      const cityIt = await quote('endUser', { ...EXAMPLE, destinationProvince: 'MI' });
      expect(cityIt.body.errors.destinationLocality).toEqual(['Roma è in provincia di RM.']);
      // a name two provinces share is accepted in either; a hamlet outside the list is accepted
      const samone = await quote('endUser', { ...EXAMPLE, destinationLocality: 'Samone', destinationProvince: 'TN' });
      expect(samone.status).toBe(200);
      const hamlet = await quote('endUser', { ...EXAMPLE, destinationLocality: 'Ostia Antica', destinationProvince: 'RM' });
      expect(hamlet.body.status).toBe(true);
      const lower = await quote('endUser', { ...EXAMPLE, originCountry: 'it', destinationCountry: 'It', destinationProvince: 'rm' });
      expect(lower.body.data.prices_list.x_total_silver_sell).toBe(93.5);
      const unknown = await quote('endUser', { ...EXAMPLE, originCountry: 'ZZ' }, 'en');
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors.originCountry).toEqual(['"ZZ" is not a country code (two letters, e.g. IT, DE).']);
      const alpha3 = await quote('endUser', { ...EXAMPLE, destinationCountry: 'ITA' }, 'en');
      expect(alpha3.status).toBe(422);
      expect(alpha3.body.errors.destinationCountry).toContain('The destination country field may not be greater than 2 characters.');
      const noCity = await quote('endUser', { ...EXAMPLE, destinationLocality: '', destinationProvince: undefined }, 'en');
      expect(noCity.body.errors).toEqual({
        destinationLocality: ['The destination locality field is required.'],
        destinationProvince: ['The destination province field is required.'],
      });
    });

    it('checks zone and service: express is national, national stays in Italy, international leaves it', async () => {
      const exp = await quote('carrier', { ...EXAMPLE, zone: 'international', destinationCountry: 'DE', destinationPostalCode: '80331' }, 'en');
      expect(exp.status).toBe(422);
      expect(exp.body.errors.service).toEqual(['Pallet express is available for national shipments only: choose the standard service.']);
      const nat = await quote('carrier', { ...STANDARD, destinationCountry: 'DE', destinationPostalCode: '80331' }, 'en');
      expect(nat.body.errors.destinationCountry).toEqual(['A national shipment starts and ends in Italy (IT).']);
      const intl = await quote('carrier', { ...STANDARD, zone: 'international' }, 'en');
      expect(intl.body.errors.destinationCountry).toEqual(['An international shipment needs its origin or its destination outside Italy.']);
      const unknownZone = await quote('carrier', { ...STANDARD, zone: 'regional' });
      expect(Object.keys(unknownZone.body.errors)).toEqual(['zone']);
      const admin = await quote('admin', EXAMPLE, 'en');
      expect(admin.body.errors.company_id).toEqual(['The company field is required.']);
    });

    it('answers status false with a message that says what to change', async () => {
      const heavy = await quote(
        'endUser',
        { ...EXAMPLE, palletWeight: [250, 1200], palletWidth: [120, 120], palletLength: [80, 80], palletHeight: [90, 90] },
        'en',
      );
      expect(heavy.status).toBe(200);
      expect(heavy.body).toEqual({
        outcome: 'not_priced',
        status: false,
        message: 'Pallet 2 weighs 1,200 kg: the limit is 1,000 kg per pallet. Lighten it or split the load.',
      });
      const high = await quote('endUser', { ...EXAMPLE, palletHeight: [250] });
      expect(high.body).toEqual({
        outcome: 'not_priced',
        status: false,
        message: 'Il pallet 1 è alto 250 cm: il limite è 240 cm. Abbassalo o dividi il carico.',
      });
      const wide = await quote('endUser', { ...EXAMPLE, palletWidth: [130] }, 'en');
      expect(wide.body.message).toBe('Pallet 1 measures 130 × 80 cm: its base must fit within 120×100 cm.');
      const noRate = await quote('endUser', { ...EXAMPLE, destinationLocality: 'Bologna', destinationProvince: 'BO', destinationPostalCode: '40121' }, 'en');
      expect(noRate.body).toEqual({
        outcome: 'not_priced',
        status: false,
        message: 'No express rate for province BO (band p300, SILVER). Choose another destination or the standard service.',
      });
      const noBand = await quote(
        'endUser',
        { ...EXAMPLE, palletWeight: [100], palletHeight: [50], destinationLocality: 'Lipari', destinationProvince: 'ME', destinationPostalCode: '98055' },
        'en',
      );
      expect(noBand.body.message).toBe('No express rate for province ME (band p150, SILVER). Choose another destination or the standard service.');
      const island = await quote('endUser', { ...EXAMPLE, destinationLocality: 'Palermo', destinationProvince: 'PA', destinationPostalCode: '90121' }, 'en');
      expect(island.body).toEqual({
        outcome: 'not_priced',
        status: false,
        message: 'The carrier has no SILVER rate for the island Sicilia. Choose the standard service or contact the carrier.',
      });
      const abroad = await quote(
        'carrier',
        { ...STANDARD, zone: 'international', originCountry: 'FR', originPostalCode: '75001', destinationCountry: 'DE', destinationPostalCode: '80331' },
        'en',
      );
      expect(abroad.body).toEqual({
        outcome: 'not_priced',
        status: false,
        message: 'Origin (FR) and destination (DE) are both outside Italy: one end of the shipment must be in Italy.',
      });
      const heavyStd = await quote('carrier', { ...STANDARD, standardweight: 6000 }, 'en');
      expect(heavyStd.body).toEqual({
        outcome: 'not_priced',
        status: false,
        message: 'No standard rate for IT zone RM at 6,000 kg (Actual weight). Check the destination, the weight and the volume.',
      });
    });

    it('names the rate type, zone and date when no sell sheet applies', async () => {
      const r = await quote('admin', { ...STANDARD, company_id: w.other }, 'en');
      expect(r.body.status).toBe(false);
      expect(r.body.message).toMatch(/^No standard national price list is valid on \d{2}\/\d{2}\/\d{4}\. Contact the carrier or try another service\.$/);
      const it_ = await quote('admin', { ...STANDARD, company_id: w.other });
      expect(it_.body.message).toMatch(/^Nessun listino standard nazionale valido al \d{2}\/\d{2}\/\d{4}\./);
    });

    it('keeps tenants apart: another carrier’s end user, a company that is not a carrier, an unknown id → 404', async () => {
      expect((await quote('carrier', { ...EXAMPLE, enduser_id: w.otherEndUser })).status).toBe(404);
      expect((await quote('carrier', { ...EXAMPLE, enduser_id: 999999 })).status).toBe(404);
      expect((await quote('carrier', { ...EXAMPLE, enduser_id: w.carrier })).status).toBe(404);
      expect((await quote('admin', { ...EXAMPLE, company_id: w.other, enduser_id: w.endUser })).status).toBe(404);
      expect((await quote('admin', { ...EXAMPLE, company_id: w.endUser })).status).toBe(404);
      expect((await quote('admin', { ...EXAMPLE, company_id: 999999 })).status).toBe(404);
      // the carrier's own company comes from its token: a company_id in the body changes nothing
      const own = await quote('carrier', { ...EXAMPLE, company_id: w.other });
      expect(own.body.data.prices_list.x_total_silver_sell).toBe(85);
      // an end user's enduser_id is ignored: it is always priced as itself
      const eu = await quote('endUser', { ...EXAMPLE, enduser_id: w.otherEndUser });
      expect(eu.body.data.prices_list.x_total_silver_sell).toBe(93.5);
    });

    it('support users do not quote; a bad token is refused, never treated as a visitor', async () => {
      expect((await quote('support', EXAMPLE)).status).toBe(403);
      const bad = await p().api('POST', '/visitor/costRequest', { token: 'not-a-token', body: EXAMPLE });
      expect(bad.status).toBe(401);
    });

    it('throttles visitors per address (every attempt counts), not signed-in users', async () => {
      const limit = p().config.quoteRateLimit;
      // a fresh address for each run (inOneWindow runs again when the calls straddled a minute's end)
      await inOneWindow(async (attempt) => {
        const ip = `10.9.${9 + attempt}.9`;
        for (let i = 0; i < limit; i++) expect((await visitor(i % 2 ? EXAMPLE : { ...EXAMPLE, palletWeight: [0] }, ip)).status).not.toBe(429);
        const over = await visitor(EXAMPLE, ip, 'en');
        expect(over.status).toBe(429);
        expect(over.body.message).toBe('Too many attempts. Please wait a minute and try again.');
        expect((await visitor(EXAMPLE, `10.9.${9 + attempt}.10`)).body.status).toBe(true);
      });
      for (let i = 0; i < limit + 5; i++) expect((await quote('endUser', EXAMPLE)).status).toBe(200);
    });

    it('counts concurrent visitor quotes exactly (they are written in batches)', async () => {
      const limit = p().config.quoteRateLimit;
      await inOneWindow(async (attempt) => {
        const ip = `10.7.${7 + attempt}.7`;
        const all = await Promise.all(Array.from({ length: limit + 5 }, () => visitor(EXAMPLE, ip)));
        expect(all.filter((r) => r.status === 200)).toHaveLength(limit);
        expect(all.filter((r) => r.status === 429)).toHaveLength(5);
        const row = await p().db.db.selectFrom('rate_limits').select('hits').where('bucket', '=', `quote:ip:${ip}`).executeTakeFirstOrThrow();
        expect(Number(row.hits)).toBe(limit + 5);
      });

      // two addresses in one batch: each counted on its own
      await inOneWindow(async (attempt) => {
        const mixed = await Promise.all(
          Array.from({ length: 2 * limit + 2 }, (_, i) => visitor(EXAMPLE, i % 2 ? `10.7.${7 + attempt}.8` : `10.7.${7 + attempt}.9`)),
        );
        expect(mixed.filter((r) => r.status === 429)).toHaveLength(2);
      });
    });

    it('tells a visitor when no visitor carrier is set', async () => {
      await setSetting(p().db.db, 'visitor_company_id', null);
      const r = await visitor(EXAMPLE, '10.9.8.1', 'en');
      expect(r.body).toEqual({ outcome: 'not_priced', status: false, message: 'Online quotes are not available at the moment. Please sign in or contact us.' });
      await setSetting(p().db.db, 'visitor_company_id', String(w.endUser)); // not a carrier
      expect((await visitor(EXAMPLE, '10.9.8.2')).body.status).toBe(false);
      await setSetting(p().db.db, 'visitor_company_id', String(w.carrier));
      expect((await visitor(EXAMPLE, '10.9.8.3')).body.status).toBe(true);
    });
  },
  { quoteRateLimit: 12 },
);
