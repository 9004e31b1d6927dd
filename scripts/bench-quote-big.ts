/**
 * A big carrier for the quote benchmark (issue 20, "Figures"): the generated tariffs of
 * bench-quote-data.ts, plus a 100 000-row standard national sheet that is the one in force (it has
 * rows for every province, so the benchmark's quote prices with it) and 10 000 more rows in each of the
 * seven tariff tables, spread over the provinces and postal codes as a real carrier's would be (so a
 * quote's indexed reads find ~100 rows of its province among them, never the benchmark's places
 * themselves). An end-user company with a user to quote as.
 */
import { COMPANY_ROLE, USER_ROLE } from '../model/roles.js';
import type { Db } from '../server/db/index.js';
import { insertRows } from '../server/imports/insert.js';
import { PASSWORD, addSheet, makeCompany, makeUser } from '../tests/api/pricingFixtures.js';
import { SIGLE, generateTariffs } from './bench-quote-data.js';

export const BIG = { sheetRows: 100_000, tableRows: 10_000, enduser: 'big-enduser@bench.demo', password: PASSWORD } as const;

const pc = (i: number) => String(30000 + (i % 60000)).padStart(5, '0');
const ISLANDS = ['Sicilia', 'Sardegna', 'Elba', 'Capri', 'Ischia', 'Eolie', 'Egadi', 'Pantelleria', 'Lampedusa', 'La Maddalena'];

export async function addBigCarrier(db: Db): Promise<{ carrierId: number }> {
  const carrierId = await makeCompany(db, 'Bench Grande Trasporti', COMPANY_ROLE.CARRIER);
  await generateTariffs(db, carrierId);
  const enduser = await makeCompany(db, 'Bench Grande Cliente', COMPANY_ROLE.ENDUSER, { carrier_id: carrierId });
  await makeUser(db, enduser, USER_ROLE.ENDUSER, BIG.enduser);

  // The 100 000-row standard sheet, in force from a later date than the generated one (so it is chosen).
  const brackets = [
    [0, 100],
    [100, 300],
    [300, 500],
    [500, 1000],
    [1000, 2500],
  ];
  const sheet = await addSheet(db, carrierId, { rateType: 'STD', zone: 'NAT', code: 'BIG-STD-NAT', from: '2001-01-01' });
  const zones = Math.ceil(BIG.sheetRows / brackets.length);
  const rows = Array.from({ length: BIG.sheetRows }, (_, i) => {
    const z = Math.floor(i / brackets.length);
    const [from, to] = brackets[i % brackets.length];
    return {
      rate_code: 'BIG',
      country: 'IT',
      // every province first, then postal-code zones (a carrier's special zones)
      zone_code: z < SIGLE.length ? SIGLE[z] : `Z${z}`,
      weight_from: String(from),
      weight_to: String(to),
      price: 1800 + ((i * 37) % 900),
      unit: 'Q',
      minimum: i % brackets.length === 0 ? 3000 : null,
      leadtime: 2 + (i % 3),
    };
  });
  if (zones < SIGLE.length) throw new Error('the big sheet must hold every province');
  const cols = ['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime'];
  await insertRows(db, 'standard_rate_rows', cols, rows, { rate_sheet_id: sheet.sheetId });

  const n = BIG.tableRows;
  const table = (name: string, make: (i: number) => Record<string, string | number | null>) => {
    const made = Array.from({ length: n }, (_, i) => make(i));
    return insertRows(db, name, Object.keys(made[0]), made, { company_id: carrierId });
  };
  const province = (i: number) => SIGLE[i % SIGLE.length];
  await table('express_hub_codes', (i) => ({ code: pc(i), hub: `HX${i % 500}` }));
  await table('express_hub_costs', (i) => ({ code: `HX${i}`, silver: 300 + (i % 200), gold: 600 + (i % 200) }));
  await table('express_island_zones', (i) => ({
    island: ISLANDS[i % ISLANDS.length],
    special_zone: `S${i}`,
    quintal_cost: 200 + (i % 50),
    multiplier: '1.1',
    p150: 800,
    p300: 1000,
    p550: 1400,
    ps550: 1600,
    p1000: 2000,
    type_id: 1 + (i % 2),
  }));
  await table('express_special_zones', (i) => ({ province: province(i), city: i % 2 ? `Frazione ${i}` : null, postal_code: i % 2 ? null : pc(i) }));
  await table('standard_special_zones', (i) => ({ province: province(i), code: `Z${SIGLE.length + (i % 5000)}`, city: null, postal_code: pc(i) }));
  await table('standard_no_passage', (i) => ({
    postal_code: i % 3 ? pc(i) : null,
    city: i % 3 ? null : `Borgo ${i}`,
    province: province(i),
    flow: i % 2 ? 'IN' : 'OUT',
    cost: 500,
    cost2: 50,
    rate_code: null,
  }));
  await table('postal_surcharges', (i) => ({ country: 'IT', postal_code: pc(i), kind: 'remote', flow: null, fixed: 500, percent: null }));
  return { carrierId };
}
