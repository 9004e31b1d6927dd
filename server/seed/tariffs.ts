import { romeToday } from '../lib/romeDate.js';
import type { Db } from '../db/index.js';
import { PROVINCE_SIGLAS } from '../../model/tariffPlaces.js';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS, tariffTable, type Example, type RowsSpec, type TariffTableKey } from '../../model/tariffs.js';
import { COMPANY_ROLE } from '../../model/roles.js';
import { ImportError } from '../imports/errors.js';
import { importRateSheet } from '../imports/rateSheets.js';
import type { FileStore } from '../lib/files.js';
import { countRows, importTariffTable } from '../imports/tables.js';
import { writeRowsXlsx } from '../imports/template.js';
import { PROVINCE_GEO, REGION_HUB, kmFromMilano } from './provinceGeo.js';

export const DEMO_CARRIER = 'Acme Trasporti S.r.l.';
const FROM = '2025-01-01';
const TO = '2030-12-31';

/** Euros from cents rounded to the 10 cents, so the demo prices read like a real price list. */
const euros = (cents: number) => Math.round(cents / 10) / 10;

const ISLAND_REGIONS = new Set(['SIC', 'SAR']);

/** Express rows for every province and both classes; buy prices at 78 % of the sell prices. */
function expressRows(share = 1): Example[] {
  const rows: Example[] = [];
  for (const p of PROVINCE_SIGLAS) {
    const km = kmFromMilano(p);
    const region = PROVINCE_GEO[p][2];
    const base = 3000 + km * 4.5; // p150 silver, in cents
    const lead = (km < 300 ? 1 : km < 700 ? 2 : 3) + (ISLAND_REGIONS.has(region) ? 1 : 0);
    for (const type of [1, 2] as const) {
      const f = (type === 2 ? 1.35 : 1) * share;
      rows.push({
        rate_code: share === 1 ? 'EXP25' : 'BUY25',
        carrier_zone: `Z${Math.min(5, 1 + Math.floor(km / 250))}`,
        country: 'IT',
        department: region,
        hub: REGION_HUB[region],
        province: p,
        p150: euros(base * f),
        p300: euros(base * 1.35 * f),
        p550: euros(base * 1.75 * f),
        ps550: euros(base * 1.95 * f),
        p1000: euros(base * 2.5 * f),
        leadtime: type === 2 ? Math.max(1, lead - 1) : lead,
        type_id: type,
      });
    }
  }
  return rows;
}

const BRACKETS: Array<[number, number]> = [
  [0, 100],
  [100, 300],
  [300, 1000],
  [1000, 3000],
  [3000, 10000],
];

/** Five brackets for a zone: a flat price up to 100 kg, then per quintal with a minimum. */
function bracketRows(country: string, zone: string, perQuintalCents: number, lead: number): Example[] {
  return BRACKETS.map(([from, to], i) => {
    const q = perQuintalCents * [1, 1, 0.85, 0.72, 0.6][i];
    return {
      rate_code: country === 'IT' ? 'STD25' : 'INT25',
      country,
      zone_code: zone,
      weight_from: from,
      weight_to: to,
      price: i === 0 ? euros(perQuintalCents * 1.3) : euros(q),
      unit: i === 0 ? 'S' : 'Q',
      minimum: i === 0 ? null : euros((q * from) / 100),
      leadtime: lead + (i >= 3 ? 1 : 0),
    };
  });
}

/** Standard zone codes of the special zones below, priced as their province plus a surcharge. */
const SPECIAL_STD: Array<[code: string, province: string, extra: number]> = [
  ['VEL', 'VE', 1.4],
  ['MIC', 'MI', 1.2],
  ['SOM', 'SO', 1.3],
];

function standardNationalRows(): Example[] {
  const perQ = (p: string) => 2200 + kmFromMilano(p) * 2.5;
  const lead = (p: string) => (kmFromMilano(p) < 400 ? 2 : kmFromMilano(p) < 900 ? 3 : 4);
  return [
    ...PROVINCE_SIGLAS.flatMap((p) => bracketRows('IT', p, perQ(p), lead(p))),
    ...SPECIAL_STD.flatMap(([code, p, extra]) => bracketRows('IT', code, perQ(p) * extra, lead(p) + 1)),
  ];
}

/** A few countries with postal-prefix zones and their '*' default (pricing.md §3.2). */
const INT_ZONES: Array<[country: string, zone: string, perQuintalCents: number, lead: number]> = [
  ['FR', '75', 6900, 4],
  ['FR', '69', 6400, 4],
  ['FR', '13', 7100, 5],
  ['FR', '*', 7800, 5],
  ['DE', '8', 6600, 4],
  ['DE', '1', 8200, 5],
  ['DE', '*', 7600, 5],
  ['ES', '28', 8400, 5],
  ['ES', '08', 7900, 5],
  ['ES', '*', 9100, 6],
  ['AT', '1', 6800, 4],
  ['AT', '*', 7300, 4],
  ['CH', '8', 6100, 3],
  ['CH', '1', 6500, 3],
  ['CH', '*', 6900, 4],
];

const TABLES: Partial<Record<TariffTableKey, () => Example[]>> = {
  express_hub_costs: () =>
    [
      ['HUBMI', 5, 9],
      ['HUBBO', 5.5, 9.5],
      ['HUBRM', 6.5, 11],
      ['HUBNA', 7.5, 12.5],
      ['HUBPA', 9, 15],
      ['HUBCA', 9.5, 16],
    ].map(([code, silver, gold]) => ({ code, silver, gold })),
  express_hub_codes: () => [
    ...PROVINCE_SIGLAS.map((p) => ({ code: p, hub: REGION_HUB[PROVINCE_GEO[p][2]] })),
    // Postal codes take precedence over their province (pricing.md §2.2): Pesaro is served from Bologna.
    { code: '61121', hub: 'HUBBO' },
    { code: '61122', hub: 'HUBBO' },
    { code: '00054', hub: 'HUBRM' },
  ],
  // Every island of the reference list, so no express quote to an island is refused for a missing zone.
  express_island_zones: () =>
    (
      [
        ['Sicilia', 'SIC', 1.5, 1.1, 12],
        ['Sardegna', 'SAR', 1.6, 1.12, 14],
        ['Elba', 'MIN', 3, 1.25, 28],
        ['Capraia', 'MIN', 5, 1.4, 45],
        ['Giglio', 'MIN', 4, 1.3, 34],
        ['Capri', 'MIN', 4, 1.3, 35],
        ['Ischia', 'MIN', 3.5, 1.25, 30],
        ['Procida', 'MIN', 3.5, 1.25, 30],
        ['Ponza', 'MIN', 4.5, 1.35, 40],
        ['Ventotene', 'MIN', 5, 1.4, 45],
        ['Tremiti', 'MIN', 5, 1.4, 48],
        ['Eolie', 'MIN', 4.5, 1.35, 40],
        ['Egadi', 'MIN', 4, 1.3, 36],
        ['Pantelleria', 'MIN', 5.5, 1.45, 55],
        ['Pelagie', 'MIN', 6, 1.5, 60],
        ['Ustica', 'MIN', 5, 1.4, 45],
        ['La Maddalena', 'MIN', 3.5, 1.25, 30],
        ['San Pietro', 'MIN', 3.5, 1.25, 30],
        ["Sant'Antioco", 'MIN', 2.5, 1.15, 20],
      ] as const
    ).flatMap(([island, zone, quintal, mult, p150]) =>
      [1, 2].map((type) => {
        const g = type === 2 ? 1.3 : 1;
        return {
          island,
          special_zone: zone,
          quintal_cost: euros(quintal * 100 * g),
          multiplier: mult,
          p150: euros(p150 * 100 * g),
          p300: euros(p150 * 150 * g),
          p550: euros(p150 * 210 * g),
          ps550: euros(p150 * 240 * g),
          p1000: euros(p150 * 330 * g),
          type_id: type,
        };
      }),
    ),
  express_special_zones: () => [
    ...['30121', '30122', '30123', '30124', '30125', '30126'].map((pc) => ({ province: 'VE', city: 'Venezia', postal_code: pc })),
    { province: 'SO', city: 'Livigno', postal_code: '' },
    { province: 'AO', city: 'Courmayeur', postal_code: '11013' },
    { province: 'BL', city: "Cortina d'Ampezzo", postal_code: '32043' },
    { province: 'TO', city: 'Sestriere', postal_code: '10058' },
  ],
  standard_special_zone: () => [
    ...['30121', '30122', '30123', '30124', '30125', '30126'].map((pc) => ({ province: 'VE', code: 'VEL', city: 'Venezia', postal_code: pc })),
    ...['20121', '20122', '20123'].map((pc) => ({ province: 'MI', code: 'MIC', city: 'Milano', postal_code: pc })),
    { province: 'SO', code: 'SOM', city: 'Livigno', postal_code: '' },
  ],
  standard_no_passage: () => [
    ...['OUT', 'IN'].map((flow) => ({
      postal_code: '30121',
      city: 'Venezia',
      cost: 25,
      province: 'VE',
      flow,
      special_zone: 'LAG',
      company_iso_2: 'IT',
      code: 'VE1',
      rate_code: '',
      cost2: 1.5,
      col_11: 'consegna in barca',
    })),
    ...['OUT', 'IN'].map((flow) => ({
      postal_code: '',
      city: 'Livigno',
      cost: 18,
      province: 'SO',
      flow,
      special_zone: 'MONT',
      company_iso_2: 'IT',
      code: 'SO1',
      rate_code: '',
      cost2: 0.8,
      col_11: 'zona extradoganale',
    })),
    {
      postal_code: '80073',
      city: 'Capri',
      cost: 30,
      province: 'NA',
      flow: 'OUT',
      special_zone: 'ISOLA',
      company_iso_2: 'IT',
      code: 'NA1',
      rate_code: '',
      cost2: 2,
      col_11: 'traghetto',
    },
    {
      postal_code: '50122',
      city: 'Firenze',
      cost: 12,
      province: 'FI',
      flow: 'OUT',
      special_zone: 'ZTL',
      company_iso_2: 'IT',
      code: 'FI1',
      rate_code: 'STD25',
      cost2: 0,
      col_11: 'zona a traffico limitato',
    },
  ],
  // pricing.md §8: a Milano ZTL at delivery, a remote area by prefix (either end), Capri at delivery
  postal_surcharges: () => [
    { country: 'IT', postal_code: '20121', kind: 'ztl', flow: 'OUT', fixed: 7, percent: '' },
    { country: 'IT', postal_code: '301*', kind: 'remote', flow: '', fixed: 5, percent: 2 },
    { country: 'IT', postal_code: '80073', kind: 'other', flow: 'OUT', fixed: '', percent: 3 },
  ],
};

/** pricing.md §7: the demo carrier's fuel plan (base 1.500 €/l, 0.5 % every 0.020 €/l, at most 8 %). */
export const DEMO_FUEL_PLAN = { fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: '8' };
/** Demo diesel prices of the last four months, oldest first; the current month's (1.587) gives 4 steps = 2 %. */
export const DEMO_DIESEL = ['1.552', '1.571', '1.598', '1.587'];

/** The month `YYYY-MM` `back` months before the one of `ymd`. */
function monthBefore(ymd: string, back: number): string {
  const y = Number(ymd.slice(0, 4));
  const m = Number(ymd.slice(5, 7)) - 1 - back;
  const d = new Date(Date.UTC(y, m, 1));
  return d.toISOString().slice(0, 7);
}

/** The fuel plan (only while the carrier has none) and the diesel prices of the months still missing. */
async function seedDemoFuel(db: Db, carrierId: number) {
  await db.updateTable('companies').set(DEMO_FUEL_PLAN).where('id', '=', carrierId).where('fuel_base_price', 'is', null).execute();
  const today = romeToday();
  const now = new Date().toISOString();
  for (let i = 0; i < DEMO_DIESEL.length; i++) {
    const month = monthBefore(today, DEMO_DIESEL.length - 1 - i);
    const have = await db.selectFrom('diesel_prices').select('id').where('month', '=', month).executeTakeFirst();
    if (have) continue;
    try {
      await db.insertInto('diesel_prices').values({ month, price: DEMO_DIESEL[i]!, note: 'Demo: prezzo medio mensile (esempio)', created_at: now }).execute();
    } catch {
      // another process seeded that month first (month is unique)
    }
  }
}

const file = async (spec: RowsSpec, rows: Example[], name: string) => ({ filename: name, data: await writeRowsXlsx(spec, rows) });

/**
 * The demo carrier's complete tariffs (server.md §10), written as spreadsheets and loaded through the
 * same import code as an upload: express sell (Customer, standard) and buy (Supplier) sheets for every
 * province and both classes, standard national and international sheets, the six tables. Each part is
 * loaded only while the carrier has none, so every start is idempotent; the demo end user is priced with
 * the express and national standard categories. Deterministic: fixed dates, fixed data.
 */
export async function seedDemoTariffs(db: Db, files: FileStore) {
  const carrier = await db
    .selectFrom('companies')
    .select(['id', 'legal_name'])
    .where('legal_name', '=', DEMO_CARRIER)
    .where('company_role_id', '=', COMPANY_ROLE.CARRIER)
    .executeTakeFirst();
  if (!carrier) return false;
  await seedDemoFuel(db, carrier.id);

  for (const [key, rows] of Object.entries(TABLES) as Array<[TariffTableKey, () => Example[]]>) {
    const spec = tariffTable(key)!;
    if ((await countRows(db, spec, carrier.id)) > 0) continue;
    try {
      await importTariffTable(db, spec, carrier.id, await file(spec, rows(), spec.templateFile));
    } catch (err) {
      if (!(err instanceof ImportError && err.status === 409)) throw err; // another process seeded it first
    }
  }

  const existing = await db.selectFrom('rate_sheets').select('id').where('company_id', '=', carrier.id).executeTakeFirst();
  if (existing) return true;
  const common = { companyId: carrier.id, legalName: carrier.legal_name, validateFrom: FROM, validateTo: TO, categoryId: null, today: FROM };
  const exp = await importRateSheet(db, files, {
    ...common,
    rateType: 'EXP',
    zone: 'NAT',
    area: 'Customer',
    isStandard: 1,
    description: 'Listino Pallet Express clienti 2025',
    file: await file(EXPRESS_RATE_ROWS, expressRows(), 'listino_express_clienti_2025.xlsx'),
  });
  await importRateSheet(db, files, {
    ...common,
    rateType: 'EXP',
    zone: 'NAT',
    area: 'Supplier',
    isStandard: 0,
    description: 'Costi Pallet Express fornitore 2025',
    file: await file(EXPRESS_RATE_ROWS, expressRows(0.78), 'costi_express_fornitore_2025.xlsx'),
  });
  const nat = await importRateSheet(db, files, {
    ...common,
    rateType: 'STD',
    zone: 'NAT',
    area: 'Customer',
    isStandard: 1,
    description: 'Listino groupage Italia 2025',
    file: await file(STANDARD_RATE_ROWS, standardNationalRows(), 'listino_groupage_italia_2025.xlsx'),
  });
  await importRateSheet(db, files, {
    ...common,
    rateType: 'STD',
    zone: 'INT',
    area: 'Customer',
    isStandard: 1,
    description: 'Listino groupage Europa 2025',
    file: await file(
      STANDARD_RATE_ROWS,
      INT_ZONES.flatMap(([c, z, q, l]) => bracketRows(c, z, q, l)),
      'listino_groupage_europa_2025.xlsx',
    ),
  });
  await db
    .updateTable('companies')
    .set({ exp_category_id: exp.sheet.category_id, std_category_id: nat.sheet.category_id })
    .where('carrier_id', '=', carrier.id)
    .where('company_role_id', '=', COMPANY_ROLE.ENDUSER)
    .where('exp_category_id', 'is', null)
    .where('std_category_id', 'is', null)
    .execute();
  return true;
}
