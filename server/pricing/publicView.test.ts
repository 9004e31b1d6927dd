/**
 * The public view (types.ts QuoteInput.view, issue 37): what an end user or a visitor receives must be the
 * same whether the engine priced everything and `visibleTo` took the rest away, or the engine left it out
 * itself. Checked on generated quotes (a seeded generator: the same cases on every run) covering what changes
 * the lines: buy sheets, islands, special zones, hubs, ADR, tail lift, fuel plans with and without a diesel
 * row, postal surcharges, end users' increases and decreases, the visitors' multiplier, refusals.
 */
import { describe, expect, it } from 'vitest';
import {
  carrier,
  D,
  endUser,
  expRow,
  expressRequest,
  MILANO,
  pallet,
  place,
  ROMA,
  sheet,
  standardInput,
  standardRequest,
  stdRow,
} from './fixtures.test-helpers.js';
import { PUBLIC_LINES } from './keys.js';
import { priceQuote, visibleTo } from './quote.js';
import type { CallerKind, PostalSurcharge, QuoteInput, QuoteResult } from './types.js';

/** mulberry32 (as scripts/benchKit.ts): repeatable cases. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick, chance: (p: number) => next() < p };
}

const KINDS: CallerKind[] = ['enduser', 'visitor'];
const PALERMO = place('Palermo', 'PA', '90121');

function postalRows(r: ReturnType<typeof random>): PostalSurcharge[] {
  if (!r.chance(0.5)) return [];
  return [
    { country: 'IT', postal_code: '00118', kind: 'ztl', flow: 'OUT', fixed: 1500, percent: null },
    { country: '', postal_code: '20*', kind: 'remote', flow: null, fixed: null, percent: r.pick(['2.5', '10', '0']) },
  ].filter(() => r.chance(0.7));
}

function fuelPlan(r: ReturnType<typeof random>) {
  return r.chance(0.6)
    ? { fuel_base_price: '1.400', fuel_step: '0.050', fuel_step_percent: r.pick(['0.5', '1', null]), fuel_max_percent: r.pick(['3', null]) }
    : {};
}

function expressCase(r: ReturnType<typeof random>, kind: CallerKind): QuoteInput {
  const toIsland = r.chance(0.25);
  const destination = toIsland ? PALERMO : ROMA;
  const province = destination.province;
  const band = () => (r.chance(0.98) ? 1000 + Math.floor(r.next() * 20000) : null);
  // rows for the destination's province and Milano's (flow IN rates the origin)
  const rows = (days: number) =>
    [province, 'MI'].flatMap((p) => [
      expRow(p, 1, { p150: band(), p300: band(), p550: band(), ps550: band(), p1000: band(), leadtime: r.pick([1, 2, null]) }),
      expRow(p, 2, { p150: band(), p300: band(), p550: band(), ps550: band(), p1000: band(), leadtime: days }),
    ]);
  const pallets = Array.from({ length: 1 + Math.floor(r.next() * 4) }, () =>
    pallet(r.chance(0.03) ? 1200 : r.pick([80, 250, 480, 900]), r.pick([80, 120]), r.pick([80, 100, 120]), r.pick([75, 140, 200])),
  );
  return {
    request: expressRequest({
      caller: kind,
      flow: r.pick(['OUT', 'IN'] as const),
      origin: r.chance(0.5) ? MILANO : place('Milano', 'MI', '20122'),
      destination,
      island: toIsland && r.chance(0.5) ? 'Sicilia' : null,
      adr: r.chance(0.4),
      taillift: r.chance(0.4),
      pallets,
    }),
    date: D,
    carrier: carrier({
      adr_surcharge_percent: r.pick(['5', '12.5', null]),
      taillift_fee: r.pick([2500, null]),
      national_admin_fee: r.pick([450, null]),
      visitor_price_multiplier: r.pick(['1.2', '0.9', null, '']),
      ...fuelPlan(r),
    }),
    endUser:
      kind === 'enduser'
        ? endUser({ increase_percent: r.pick(['10', null, '150']), decrease_percent: r.pick(['5', null]), national_admin_fee: r.pick([300, null]) })
        : null,
    sheets: { sell: sheet(11, { code: 'SELL' }), sellSource: 'carrier_standard', buy: r.chance(0.6) ? sheet(12, { code: 'BUY' }) : null },
    expressSellRows: rows(1),
    expressBuyRows: r.chance(0.8) ? rows(2) : [],
    hubCodes: r.chance(0.7) ? [{ code: 'MI', hub: 'HUBMI' }] : [],
    hubCosts: [{ code: 'HUBMI', silver: 500, gold: 900 }],
    islandZones: r.chance(0.8)
      ? [1, 2].map((type_id) => ({
          island: 'Sicilia',
          special_zone: null,
          quintal_cost: r.pick([100, null]),
          multiplier: r.pick(['1.1', null]),
          p150: 200,
          p300: 300,
          p550: 400,
          ps550: 500,
          p1000: 600,
          type_id: type_id as 1 | 2,
        }))
      : [],
    islandList: toIsland ? [{ island: 'Sicilia', city: 'Palermo', province: 'PA' }] : [],
    expressSpecialZones: r.chance(0.3) ? [{ postal_code: destination.postal_code, city: null, province: null }] : [],
    diesel: r.chance(0.8) ? { month: '2026-11', price: r.pick(['1.587', '1.300', 'x']) } : null,
    postalSurcharges: postalRows(r),
  } as QuoteInput;
}

function standardCase(r: ReturnType<typeof random>, kind: CallerKind): QuoteInput {
  const weight = r.pick([40, 250, 480, 2600]);
  return standardInput({
    request: standardRequest({
      caller: kind,
      adr: r.chance(0.4),
      taillift: r.chance(0.4),
      standard: { units: 2, weight, volume: r.pick([0, 1.5, 6]), volumeType: r.pick(['CBM', 'LM'] as const), ratio: null },
    }),
    carrier: carrier({
      adr_surcharge_percent: r.pick(['5', null]),
      taillift_fee: r.pick([2500, null]),
      visitor_price_multiplier: r.pick(['1.2', null]),
      ...fuelPlan(r),
    }),
    endUser:
      kind === 'enduser'
        ? endUser({ increase_percent: r.pick(['10', null]), decrease_percent: r.pick(['5', null]), combo_cbm_ratio: r.pick(['300', null]) })
        : null,
    standardSellRows: r.chance(0.9)
      ? [
          stdRow('IT', 'RM', 0, 100, 3000, { minimum: r.pick([5000, null]) }),
          stdRow('IT', 'RM', 100, 500, 2000),
          stdRow('IT', 'RM', 500, 5000, 1500, { unit: 'S' }),
        ]
      : [stdRow('IT', 'RM', 0, 100, 3000)],
    noPassage: r.chance(0.5) ? [{ flow: 'OUT', postal_code: '00118', city: null, province: null, rate_code: null, cost: 700, cost2: 50 }] : [],
    diesel: r.chance(0.8) ? { month: '2026-11', price: '1.587' } : null,
    postalSurcharges: postalRows(r),
  } as Partial<QuoteInput>);
}

/** What the caller receives either way: the refusal, or `visibleTo`'s answer. */
const received = (kind: CallerKind, r: QuoteResult) => (r.ok ? { ok: true, data: visibleTo(kind, r.data) } : r);

describe('the public view gives end users and visitors exactly what visibleTo gives them', () => {
  for (const [name, make] of [
    ['pallet express', expressCase],
    ['standard', standardCase],
  ] as const) {
    it(`${name}: 600 generated quotes`, () => {
      const r = random(name.length * 7919);
      let priced = 0;
      let refused = 0;
      let buyPriced = 0;
      for (let i = 0; i < 600; i++) {
        const kind = KINDS[i % 2]!;
        const input = make(r, kind);
        const full = priceQuote(input);
        const pub = priceQuote({ ...input, view: 'public' });
        expect(received(kind, pub), `case ${i} (${kind})`).toEqual(received(kind, full));
        if (!pub.ok) {
          refused++;
          continue;
        }
        priced++;
        // the public view's own lines are all public, and it priced no buy side
        expect(pub.data.breakdown.every((l) => PUBLIC_LINES.has(l.key))).toBe(true);
        if (pub.data.prices_list) expect([pub.data.prices_list.total_silver_buy, pub.data.prices_list.total_gold_buy]).toEqual([null, null]);
        if (full.ok && full.data.prices_list?.total_silver_buy != null) buyPriced++;
      }
      // the generator reaches both outcomes (and, for express, quotes whose full view priced a buy side)
      expect(priced).toBeGreaterThan(250);
      expect(refused).toBeGreaterThan(10);
      if (name === 'pallet express') expect(buyPriced).toBeGreaterThan(100);
    });
  }
});
