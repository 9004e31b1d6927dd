import { beforeAll, expect, it } from 'vitest';
import { compileAnswer, openness } from '../../server/plugins/answers.js';
import { anyObject, obj, str } from '../../server/lib/answers.js';
import { describeEachDb, DEMO } from './helpers.js';
import { buildPricingWorld, type PricingWorld } from './pricingFixtures.js';

/**
 * The quote's answers are written by serializers compiled from their schemas (issue 37, plugins/answers.ts
 * `compileAnswer`), and they are the answers JSON.stringify wrote: the API tests run with validateResponses,
 * under which every compiled answer is parsed and compared with JSON.stringify's of the handler's object (a
 * difference is a 500). Here every caller's quote, priced and not priced, express and standard, goes through it.
 */
const EXPRESS = {
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
  palletWeight: [250, 480],
  palletWidth: [120, 120],
  palletLength: [80, 100],
  palletHeight: [90, 140],
};
const { palletWeight: _w, palletWidth: _wi, palletLength: _l, palletHeight: _h, ...ROUTE } = EXPRESS;
const STANDARD = { ...ROUTE, service: 'standard', standardunits: 2, standardweight: 250, standardvolume: 1.2, standardvolumeType: 'CBM' };

describeEachDb('compiled answers: the quote', (p) => {
  let w: PricingWorld;
  const tokens: Record<string, string> = {};
  let ip = 0;
  const ask = async (who: string | null, body: object) => {
    const res = await p().app.inject({
      method: 'POST',
      url: '/api/v1/visitor/costRequest',
      remoteAddress: `10.9.0.${++ip}`,
      headers: { 'x-api-password': p().config.apiPassword, 'accept-language': 'it', ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}) },
      payload: body,
    });
    return { status: res.statusCode, text: res.payload, body: res.json() };
  };

  beforeAll(async () => {
    w = await buildPricingWorld(p().db.db, 'roles');
    tokens.carrier = await p().login(w.logins.carrier);
    tokens.endUser = await p().login(w.logins.endUser);
    tokens.admin = await p().login(DEMO.admin);
  });

  it('POST /visitor/costRequest is one of the compiled routes', () => {
    expect(p().app.compiledAnswerRoutes.has('POST /api/v1/visitor/costRequest')).toBe(true);
  });

  it('every caller’s answer, priced or not, is the compiled one and equals JSON.stringify’s', async () => {
    const cases: Array<[string | null, object, 'priced' | 'not_priced']> = [
      ['endUser', EXPRESS, 'priced'],
      ['endUser', STANDARD, 'priced'],
      ['carrier', { ...EXPRESS, enduser_id: w.endUser }, 'priced'],
      ['carrier', { ...STANDARD, calculationRatio: 'CBM250' }, 'priced'],
      ['admin', { ...EXPRESS, company_id: w.carrier }, 'priced'],
      // a pallet over the weight limit: a refusal, the NoQuote branch
      ['endUser', { ...EXPRESS, palletWeight: [250, 1200] }, 'not_priced'],
      [null, EXPRESS, 'priced'],
    ];
    for (const [who, body, outcome] of cases) {
      const r = await ask(who, body);
      // 200 under validateResponses: the schema check and the comparison with JSON.stringify passed
      expect(r.status, `${who} ${JSON.stringify(body).slice(0, 60)}: ${r.text.slice(0, 300)}`).toBe(200);
      if (who === null && r.body.outcome === 'not_priced') continue; // the world may leave visitors without a carrier
      expect(r.body.outcome).toBe(outcome);
      expect(r.body.status).toBe(outcome === 'priced');
      // written in the schema's key order (quoteDataSchema: fuel first), which JSON.stringify of the
      // engine's object (palletData or costo_complete first) would not give: the compiled serializer wrote it
      if (outcome === 'priced') expect(Object.keys(r.body.data)[0]).toBe('fuel');
      // and the text is what the compiled function of the route's Quote / NoQuote branch writes
      expect(r.text).toBe(compileAnswer({ oneOf: [{ $ref: 'Quote#' }, { $ref: 'NoQuote#' }], discriminator: { propertyName: 'outcome' } })(r.body));
    }
  });
});

it('compileAnswer: why the answers must match closed schemas (an undeclared property is dropped)', () => {
  const write = compileAnswer({ $ref: 'NoQuote#' });
  const answer = { outcome: 'not_priced', status: false, message: 'no price' };
  expect(JSON.parse(write(answer))).toEqual(answer);
  // what the tests' comparison (plugins/answers.ts) catches: fast-json-stringify writes only what is declared
  expect(JSON.parse(write({ ...answer, extra: 1 }))).toEqual(answer);
});

it('openness: only closed schemas are compiled; a route asking for an open one does not start', () => {
  expect(openness({ $ref: 'Quote#' })).toBeUndefined();
  expect(openness(obj({ a: str }))).toBeUndefined();
  expect(openness(obj({ a: anyObject }))).toMatch(/#\/a: an object not closed/);
  expect(openness({ type: 'object', properties: { a: str } })).toMatch(/not closed/);
  expect(openness(obj({ a: { oneOf: [str, { type: 'integer' }] } }))).toMatch(/oneOf/);
  expect(openness(obj({ a: { anyOf: [str, { type: 'integer' }] } }))).toMatch(/anyOf other than/);
  expect(() => compileAnswer(obj({ a: anyObject }), 'GET /x 200')).toThrow(/GET \/x 200: cannot be compiled/);
});
