import { expect, it } from 'vitest';
import { PROVINCE_SIGLAS } from '../../model/tariffPlaces.js';
import { priceQuote, selectSheets, type QuoteInput, type QuoteRequest, type Place } from '../../server/pricing/index.js';
import { DEMO_CARRIER } from '../../server/seed/tariffs.js';
import { describeEachDb } from './helpers.js';

/**
 * The demo tariffs as stored by the import, fed to the pure pricing engine: every province is priced
 * for both classes and for standard, national and international, so the demo works everywhere.
 * (The quote route and its row loader belong to the calculator; this checks the stored shapes.)
 */
describeEachDb('demo tariffs priced by the engine', (p) => {
  it('price every province (express SILVER and GOLD, standard) and the international zones', async () => {
    const db = p().db.db;
    const carrier = await db.selectFrom('companies').selectAll().where('legal_name', '=', DEMO_CARRIER).executeTakeFirstOrThrow();
    const categories = await db.selectFrom('categories').selectAll().where('company_id', '=', carrier.id).execute();
    const sheets = await db.selectFrom('rate_sheets').selectAll().where('company_id', '=', carrier.id).execute();
    const table = <T>(name: string) => (db as any).selectFrom(name).selectAll().where('company_id', '=', carrier.id).execute() as Promise<T[]>;
    const tables = {
      hubCodes: await table<any>('express_hub_codes'),
      hubCosts: await table<any>('express_hub_costs'),
      islandZones: await table<any>('express_island_zones'),
      expressSpecialZones: await table<any>('express_special_zones'),
      standardSpecialZones: await table<any>('standard_special_zones'),
      noPassage: await table<any>('standard_no_passage'),
    };
    const rows = async (table: 'express_rate_rows' | 'standard_rate_rows', id?: number) =>
      (id ? await (db as any).selectFrom(table).selectAll().where('rate_sheet_id', '=', id).execute() : []) as any[];
    const settings = { ...carrier, id: carrier.id };
    const date = '2026-06-15';
    const choose = (rateType: 'EXP' | 'STD', zone: 'NAT' | 'INT') =>
      selectSheets({ categories: categories as any, sheets: sheets as any, endUser: null, rateType, zone, date });
    const exp = choose('EXP', 'NAT');
    const [expSell, expBuy] = [await rows('express_rate_rows', exp.sell?.id), await rows('express_rate_rows', exp.buy?.id)];
    const nat = choose('STD', 'NAT');
    const intl = choose('STD', 'INT');
    const milano: Place = { country: 'IT', postal_code: '20138', city: 'Milano', province: 'MI' };
    const base = (over: Partial<QuoteRequest>): QuoteRequest => ({
      zone: 'national',
      service: 'palletExpress',
      flow: 'OUT',
      adr: false,
      taillift: false,
      origin: milano,
      destination: milano,
      pallets: [],
      caller: 'carrier',
      ...over,
    });
    const islandList = await (db as any).selectFrom('island_places').select(['island', 'city', 'province']).execute();
    const input = (request: QuoteRequest, choice: ReturnType<typeof choose>, extra: Partial<QuoteInput>): QuoteInput => ({
      request,
      date,
      carrier: settings as any,
      endUser: null,
      sheets: choice,
      ...tables,
      islandList,
      ...extra,
    });

    for (const province of PROVINCE_SIGLAS) {
      const to: Place = { country: 'IT', postal_code: '00000', city: `Capoluogo ${province}`, province };
      const e = priceQuote(
        input(base({ destination: to, pallets: [{ weight: 250, width: 120, length: 80, height: 90 }] }), exp, {
          expressSellRows: expSell,
          expressBuyRows: expBuy,
        }),
      );
      expect(e.ok, `${province} express ${JSON.stringify(e)}`).toBe(true);
      if (e.ok) {
        const pl = e.data.prices_list!;
        expect(pl.total_gold_sell!).toBeGreaterThan(pl.total_silver_sell!);
        expect(pl.total_silver_buy!).toBeLessThan(pl.total_silver_sell!);
      }
      const s = priceQuote(
        input(base({ service: 'standard', destination: to, standard: { units: 2, weight: 450, volume: 1.2, volumeType: 'CBM', ratio: 250 } }), nat, {
          standardSellRows: await rows('standard_rate_rows', nat.sell?.id),
        }),
      );
      expect(s.ok, `${province} standard ${JSON.stringify(s)}`).toBe(true);
    }
    // Every island of the reference list has its zone rows: one municipality of each is priced.
    const islands = new Map<string, any>();
    for (const place of islandList) if (!islands.has(place.island)) islands.set(place.island, place);
    expect(islands.size).toBe(19);
    for (const place of islands.values()) {
      const to: Place = { country: 'IT', postal_code: '00000', city: place.city, province: place.province };
      const e = priceQuote(
        input(base({ destination: to, pallets: [{ weight: 250, width: 120, length: 80, height: 90 }] }), exp, {
          expressSellRows: expSell,
          expressBuyRows: expBuy,
        }),
      );
      expect(e.ok, `${place.island} ${JSON.stringify(e)}`).toBe(true);
      if (e.ok) expect(e.data.breakdown.some((l) => JSON.stringify(l.params).includes(place.island))).toBe(true);
    }
    const intlRows = await rows('standard_rate_rows', intl.sell?.id);
    for (const [country, postal] of [
      ['FR', '75008'],
      ['FR', '33000'],
      ['DE', '80331'],
      ['ES', '08001'],
      ['AT', '1010'],
      ['CH', '8001'],
    ]) {
      const to: Place = { country, postal_code: postal, city: 'X', province: '' };
      const s = priceQuote(
        input(
          base({ zone: 'international', service: 'standard', destination: to, standard: { units: 1, weight: 800, volume: 2, volumeType: 'CBM', ratio: 250 } }),
          intl,
          { standardSellRows: intlRows },
        ),
      );
      expect(s.ok, `${country} ${JSON.stringify(s)}`).toBe(true);
    }
  });
});
