import { describe, expect, it } from 'vitest';
import { pricing } from '../i18n/pricing.js';
import { LINE, REFUSAL } from '../pricing/keys.js';
import type { BreakdownEntry } from '../pricing/types.js';
import { refusalMessage, translateLines } from './quoteText.js';

const LANGS = ['it', 'en', 'fr'] as const;

/** A line of every key with the parameters the engine gives it (pricing/keys.ts). */
const SAMPLE: BreakdownEntry[] = [
  { key: LINE.sellSheet, params: { sheetId: 3, code: 'ACEXPNAT20261121', source: 'enduser_category' }, amount: null },
  { key: LINE.sellSheet, params: { sheetId: 3, code: null, source: 'carrier_standard' }, amount: null },
  { key: LINE.palletBand, params: { row: 1, band: 'p300', measure: '120×80×90', weight: '250.5' }, amount: null },
  { key: LINE.island, params: { island: 'Eolie', source: 'list' }, amount: null },
  { key: LINE.island, params: { island: 'Elba', source: 'request' }, amount: null },
  { key: LINE.specialZone, params: { days: 1 }, amount: null },
  { key: LINE.leadTime, params: { class: 'GOLD', days: 2 }, amount: null },
  { key: LINE.leadTime, params: { class: null, days: null }, amount: null },
  { key: LINE.offer, params: { class: 'SILVER' }, amount: 93.5 },
  { key: LINE.ratio, params: { volumeType: 'CBM', ratio: 300, source: 'enduser' }, amount: null },
  { key: LINE.ratio, params: { volumeType: 'LM', ratio: 1750, source: 'default' }, amount: null },
  { key: LINE.zoneCode, params: { country: 'DE', zone_code: '80', source: 'postal_prefix' }, amount: null },
  { key: LINE.chargeableWeight, params: { lane_one_kg: 250, lane_two_kg: 1360, chargeable_kg: 1360 }, amount: null },
  { key: LINE.shipmentCost, params: {}, amount: 59.4 },
  { key: LINE.adminFee, params: { scope: 'international', source: 'carrier' }, amount: 9 },
  { key: LINE.total, params: { class: null }, amount: 63.9 },
  { key: LINE.buySheet, params: { sheetId: 4, code: 'B1' }, amount: null },
  { key: LINE.noBuySheet, params: {}, amount: null },
  { key: LINE.hub, params: { hub: 'HUBMI', code: 'MI', matchedBy: 'province' }, amount: null },
  { key: LINE.hub, params: { hub: null, code: null, matchedBy: null }, amount: null },
  { key: LINE.palletBase, params: { row: 1, class: 'GOLD', band: 'p300', province: 'RM', side: 'buy' }, amount: 90 },
  { key: LINE.hubCost, params: { row: 1, class: 'GOLD', hub: null, side: 'sell' }, amount: 0 },
  { key: LINE.islandSurcharge, params: { row: 1, class: 'SILVER', island: 'Eolie', multiplier: '1.2', quintals: 3, side: 'sell' }, amount: 36 },
  { key: LINE.palletPrice, params: { row: 2, class: 'SILVER', side: 'sell' }, amount: 85 },
  { key: LINE.adr, params: { class: null, percent: '7.5', side: 'sell' }, amount: 3.38 },
  { key: LINE.taillift, params: { class: 'GOLD', side: 'buy' }, amount: 20 },
  { key: LINE.listTotal, params: { class: 'GOLD' }, amount: 119 },
  { key: LINE.buyTotal, params: { class: 'GOLD' }, amount: 99 },
  { key: LINE.buyTotal, params: { class: 'SILVER' }, amount: null },
  { key: LINE.increase, params: { class: null, percent: '10' }, amount: 5.4 },
  { key: LINE.decrease, params: { class: 'GOLD', percent: '5' }, amount: -6 },
  { key: LINE.visitorMultiplier, params: { class: 'SILVER', multiplier: '1.1' }, amount: 8.5 },
  {
    key: LINE.lane,
    params: { lane: 2, weight: 1360, country: 'IT', zone_code: 'RM', rate_code: null, unit: 'Q', price: 1234.5, minimumApplied: true },
    amount: 16789.2,
  },
  { key: LINE.lane, params: { lane: 1, weight: 250, country: 'IT', zone_code: 'RM', rate_code: 'A', unit: 'S', price: 40, minimumApplied: false }, amount: 40 },
  { key: LINE.freight, params: { lane: 2 }, amount: 54 },
  { key: LINE.noPassage, params: { flow: 'IN', postal_code: null, city: 'Firenze', province: 'FI', quintals: 3 }, amount: 8 },
];

const REFUSALS: Array<[string, Record<string, string | number | null>]> = [
  [REFUSAL.noSellSheet, { rateType: 'EXP', zone: 'NAT', date: '2026-11-21' }],
  [REFUSAL.noExpressRate, { province: 'BO', band: 'p300', class: 'SILVER' }],
  [REFUSAL.palletOverWeight, { row: 2, max: 1000, value: '1200' }],
  [REFUSAL.palletOverHeight, { row: 1, max: 240, value: '250' }],
  [REFUSAL.palletOverFootprint, { row: 1, max: '120×100', width: '130', length: '80' }],
  [REFUSAL.noIslandZone, { island: 'Sicilia', class: 'GOLD' }],
  [REFUSAL.noStandardRate, { country: 'IT', zone_code: 'RM', weight: 6000, lane: 1 }],
  [REFUSAL.bothEndsAbroad, { origin: 'FR', destination: 'DE' }],
  [REFUSAL.expressNationalOnly, {}],
  [REFUSAL.nothingToPrice, {}],
];

describe('pricing texts', () => {
  it('has every refusal and breakdown key in it, en and fr', () => {
    const keys = [...Object.values(REFUSAL), ...Object.values(LINE)].filter((k) => k !== LINE.ratio);
    for (const lang of LANGS) {
      for (const k of [...keys, `${LINE.ratio}.CBM`, `${LINE.ratio}.LM`, `${LINE.hub}.none`, `${LINE.buyTotal}.none`]) {
        expect((pricing[lang] as Record<string, string>)[k], `${lang} ${k}`).toBeTruthy();
      }
      expect(Object.keys(pricing[lang]).sort()).toEqual(Object.keys(pricing.en).sort());
    }
  });

  it('fills every placeholder of every line and refusal, in every language', () => {
    for (const lang of LANGS) {
      for (const l of translateLines(lang, SAMPLE)) expect(l.label, `${lang} ${l.key}`).not.toMatch(/[{}]|undefined|pricing\./);
      for (const [key, params] of REFUSALS) expect(refusalMessage(lang, key, params), `${lang} ${key}`).not.toMatch(/[{}]|undefined|pricing\./);
    }
  });

  it('writes numbers, euros, days and dates the way each language does', () => {
    const it_ = translateLines('it', SAMPLE).map((l) => l.label.replace(/[\u00a0\u202f]/g, ' '));
    expect(it_).toContain('Peso volumetrico: 1.360 kg, zona IT RM, 1.234,50 € ogni 100 kg, minimo applicato');
    expect(it_).toContain('Pallet 1: 120×80×90 cm, 250,5 kg → fascia p300');
    expect(it_).toContain('Supplemento ADR 7,5% (vendita)');
    expect(it_).toContain('Tempi di resa: n/d');
    expect(it_).toContain('Tempi di resa GOLD: 2 giorni');
    expect(it_).toContain('Hub HUBMI (codice MI, per provincia)');
    expect(it_).toContain('Totale acquisto SILVER: non disponibile');
    expect(it_).toContain('Supplemento non transito al ritiro: Firenze (FI)');
    const en = translateLines('en', SAMPLE).map((l) => l.label);
    expect(en).toContain('Volumetric weight: 1,360 kg, zone IT RM, €1,234.50 per 100 kg, minimum charge applied');
    expect(en).toContain('Ratio: 1 loading metre = 1,750 kg (default)');
    expect(en).toContain('Special zone: lead time +1 day');
    expect(refusalMessage('it', REFUSAL.noSellSheet, { rateType: 'EXP', zone: 'NAT', date: '2026-11-21' })).toBe(
      'Nessun listino pallet express nazionale valido al 21/11/2026. Contatta il vettore o prova un altro servizio.',
    );
    expect(refusalMessage('fr', REFUSAL.palletOverWeight, { row: 2, max: 1000, value: '1200' }).replace(/[\u00a0\u202f]/g, ' ')).toBe(
      'La palette 2 pèse 1 200 kg : la limite est de 1 000 kg par palette. Allégez-la ou divisez le chargement.',
    );
  });

  it('gives the same label from its memo as the first time', () => {
    const once = translateLines('fr', SAMPLE);
    expect(translateLines('fr', SAMPLE)).toEqual(once);
    expect(translateLines('it', SAMPLE)).not.toEqual(once);
  });
});
