/**
 * Tariffs for the quote benchmark, the size of a real carrier's: every Italian province in both classes
 * and all bands (sell and buy), hub codes and costs, island zones, special zones, standard brackets
 * for every province and ten countries with postal-code zones, no-passage rows. Used when the demo
 * carrier has no express tariffs of its own (the demo tariffs of the tariffs area replace them).
 */
import type { Db } from '../server/db/index.js';
import { addExpressRows, addSheet, addStandardRows, addTariffRows, ensureReferencePlaces } from '../tests/api/pricingFixtures.js';

export const SIGLE = (
  'AG AL AN AO AP AQ AR AT AV BA BG BI BL BN BO BR BS BT BZ CA CB CE CH CL CN CO CR CS CT CZ EN FC FE FG FI FM FR GE GO GR IM IS KR LC LE LI LO LT ' +
  'LU MB MC ME MI MN MO MS MT NA NO NU OR PA PC PD PE PG PI PN PO PR PT PU PV PZ RA RC RE RG RI RM RN RO SA SI SO SP SR SS SU SV TA TE TN TO TP TR TS TV UD VA VB VC VE VI VR VT VV'
).split(' ');

/** True when the carrier already has an express national sell sheet (the demo tariffs are loaded). */
export async function hasExpressTariffs(db: Db, carrierId: number) {
  return !!(await db
    .selectFrom('rate_sheets')
    .select('id')
    .where('company_id', '=', carrierId)
    .where('rate_type', '=', 'EXP')
    .where('area', '=', 'Customer')
    .executeTakeFirst());
}

export async function generateTariffs(db: Db, carrierId: number) {
  await ensureReferencePlaces(db);
  const have = new Set((await (db as any).selectFrom('provinces').select('sigla').execute()).map((r: any) => r.sigla));
  for (const sigla of SIGLE) if (!have.has(sigla)) await (db as any).insertInto('provinces').values({ sigla, name: sigla, region: '' }).execute();

  const price = (i: number, base: number) => Math.round((base + ((i * 37) % 60) + 0.25) * 100) / 100;
  const bands = (i: number, k: number) => ({
    p150: price(i, 50 * k),
    p300: price(i, 70 * k),
    p550: price(i, 95 * k),
    ps550: price(i, 110 * k),
    p1000: price(i, 150 * k),
  });
  for (const [area, k] of [
    ['Customer', 1],
    ['Supplier', 0.7],
  ] as const) {
    const s = await addSheet(db, carrierId, { rateType: 'EXP', zone: 'NAT', area, isStandard: area === 'Customer' ? 1 : 0, code: `BENCH-EXP-${area}` });
    await addExpressRows(
      db,
      s.sheetId,
      SIGLE.flatMap((province, i) => [
        { province, type_id: 1 as const, leadtime: 2 + (i % 3), ...bands(i, k) },
        { province, type_id: 2 as const, leadtime: 1 + (i % 2), ...bands(i, k * 1.4) },
      ]),
    );
  }
  await addTariffRows(db, 'express_hub_codes', carrierId, [
    ...SIGLE.map((code, i) => ({ code, hub: `HUB${i % 20}` })),
    ...Array.from({ length: 400 }, (_, i) => ({ code: String(10000 + i * 211).padStart(5, '0'), hub: `HUB${i % 20}` })),
  ]);
  await addTariffRows(
    db,
    'express_hub_costs',
    carrierId,
    Array.from({ length: 20 }, (_, i) => ({ code: `HUB${i}`, silver: 3 + i / 4, gold: 6 + i / 4 })),
  );
  const islands = ['Sicilia', 'Sardegna', 'Elba', 'Capri', 'Ischia', 'Eolie', 'Egadi', 'Pantelleria', 'Lampedusa', 'La Maddalena'];
  await addTariffRows(
    db,
    'express_island_zones',
    carrierId,
    islands.flatMap((island, i) =>
      [1, 2].map((type_id) => ({
        island,
        type_id,
        multiplier: '1.1',
        quintal_cost: 2 + i / 2,
        p150: 8,
        p300: 10,
        p550: 14,
        ps550: 16,
        p1000: 20,
      })),
    ),
  );
  await addTariffRows(
    db,
    'express_special_zones',
    carrierId,
    Array.from({ length: 300 }, (_, i) => ({
      province: SIGLE[i % SIGLE.length],
      city: i % 2 ? `Località ${i}` : null,
      postal_code: i % 2 ? null : String(10000 + i * 293).padStart(5, '0'),
    })),
  );

  const brackets = [
    [0, 100],
    [100, 300],
    [300, 500],
    [500, 1000],
    [1000, 2500],
    [2500, 5000],
  ];
  const nat = await addSheet(db, carrierId, { rateType: 'STD', zone: 'NAT', code: 'BENCH-STD-NAT' });
  await addStandardRows(
    db,
    nat.sheetId,
    SIGLE.flatMap((zone_code, i) =>
      brackets.map(([from, to], b) => ({
        country: 'IT',
        zone_code,
        from,
        to,
        price: price(i, 22 - b * 2),
        unit: 'Q' as const,
        minimum: b === 0 ? 35 : undefined,
        leadtime: 2 + (i % 4),
      })),
    ),
  );
  const intl = await addSheet(db, carrierId, { rateType: 'STD', zone: 'INT', code: 'BENCH-STD-INT' });
  const countries = ['DE', 'FR', 'ES', 'AT', 'CH', 'BE', 'NL', 'PL', 'PT', 'SI'];
  await addStandardRows(
    db,
    intl.sheetId,
    countries.flatMap((country, c) =>
      ['*', ...Array.from({ length: 10 }, (_, z) => String(z))].flatMap((zone_code) =>
        brackets.map(([from, to], b) => ({ country, zone_code, from, to, price: price(c, 40 - b * 3), unit: 'Q' as const, leadtime: 4 + (c % 3) })),
      ),
    ),
  );
  await addTariffRows(
    db,
    'standard_special_zones',
    carrierId,
    Array.from({ length: 100 }, (_, i) => ({
      province: SIGLE[i % SIGLE.length],
      code: `ZS${i % 10}`,
      city: null,
      postal_code: String(20000 + i * 397).padStart(5, '0'),
    })),
  );
  await addTariffRows(
    db,
    'standard_no_passage',
    carrierId,
    Array.from({ length: 300 }, (_, i) => ({
      postal_code: i % 3 ? String(30000 + i * 191).padStart(5, '0') : null,
      city: i % 3 ? null : `Borgo ${i}`,
      province: SIGLE[i % SIGLE.length],
      flow: i % 2 ? 'IN' : 'OUT',
      cost: 5,
      cost2: 0.5,
      rate_code: null,
    })),
  );
}
