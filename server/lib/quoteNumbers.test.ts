import { describe, expect, it } from 'vitest';
import { inputsHash, lowestTotal, monthEnd, quoteValidity } from './quoteNumbers.js';
import { attachment, downloadName, slug } from './downloadNames.js';
import type { CarrierSettings, QuoteData } from '../pricing/types.js';

const noPlan = { fuel_base_price: null, fuel_step: null, fuel_step_percent: null, fuel_max_percent: null } as unknown as CarrierSettings;
const plan = { fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '1', fuel_max_percent: '10' } as unknown as CarrierSettings;
const fuel = { fuel: { month: '2026-11', price: '1.600', percent: '5' } };

describe('quote validity (issue 36 item 5)', () => {
  it('knows the months’ last days, leap years included', () => {
    expect(['2026-01', '2026-02', '2028-02', '2100-02', '2000-02', '2026-04', '2026-12'].map(monthEnd)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2028-02-29',
      '2100-02-28',
      '2000-02-29',
      '2026-04-30',
      '2026-12-31',
    ]);
  });

  it('ends with the fuel month when the sheet ends later, with the sheet when it ends earlier', () => {
    expect(quoteValidity('2026-11-29', fuel, plan, '2099-12-31')).toEqual({ validTo: '2026-11-30', reason: 'fuel', month: '2026-11' });
    expect(quoteValidity('2026-11-03', fuel, plan, '2026-11-15')).toEqual({ validTo: '2026-11-15', reason: 'sheet', month: null });
    // the same day: the fuel month says it
    expect(quoteValidity('2026-11-03', fuel, plan, '2026-11-30').reason).toBe('fuel');
    // an open-ended sheet: the month
    expect(quoteValidity('2026-02-10', fuel, plan, null).validTo).toBe('2026-02-28');
    // a plan without this month's price yet (no surcharge applied) is still month-bound
    expect(quoteValidity('2026-11-29', { fuel: null }, plan, '2099-12-31').validTo).toBe('2026-11-30');
  });

  it('without a fuel plan keeps the sheet’s last day, or today only', () => {
    expect(quoteValidity('2026-11-29', { fuel: null }, noPlan, '2099-12-31')).toEqual({ validTo: '2099-12-31', reason: 'sheet', month: null });
    expect(quoteValidity('2026-11-29', { fuel: null }, noPlan, null)).toEqual({ validTo: null, reason: null, month: null });
  });

  it('hashes the same inputs the same whatever their order, and tells kinds apart', () => {
    expect(inputsHash('enduser', { a: 1, b: { c: [1, 2], d: 'x' } })).toBe(inputsHash('enduser', { b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(inputsHash('enduser', { a: 1 })).not.toBe(inputsHash('visitor', { a: 1 }));
    expect(inputsHash('enduser', { a: [1, 2] })).not.toBe(inputsHash('enduser', { a: [2, 1] }));
  });

  it('keeps the lowest total offered, in cents', () => {
    const express = { prices_list: { x_total_silver_sell: 88.1, x_total_gold_sell: 121.0, admin_fee: 4.5 } } as unknown as QuoteData;
    expect(lowestTotal(express)).toBe(9260);
    expect(lowestTotal({ costo_complete: { totla: 130.9 } } as unknown as QuoteData)).toBe(13090);
    expect(lowestTotal({} as QuoteData)).toBeNull();
  });
});

describe('download names (issue 36 item 5)', () => {
  it('makes file words of labels', () => {
    expect(slug('Demandes d’accès')).toBe('demandes-d-acces');
    expect(slug('Coûts des hubs')).toBe('couts-des-hubs');
    expect(slug('  Prezzi del gasolio ')).toBe('prezzi-del-gasolio');
  });

  it('writes RFC 6266 headers: an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachment('lettera-di-vettura-42.pdf')).toBe(`attachment; filename="lettera-di-vettura-42.pdf"; filename*=UTF-8''lettera-di-vettura-42.pdf`);
    expect(attachment('Città "x" (1)*.pdf')).toBe(`attachment; filename="Citta _x_ (1)*.pdf"; filename*=UTF-8''Citt%C3%A0%20%22x%22%20%281%29%2A.pdf`);
    // a control character never reaches the header
    expect(attachment('a\r\nb.pdf')).toContain('filename="a__b.pdf"');
  });

  it('names the portal’s files per language', () => {
    expect(['it', 'en', 'fr'].map((l) => downloadName.waybill(l as 'it', 42))).toEqual([
      'lettera-di-vettura-42.pdf',
      'waybill-42.pdf',
      'lettre-de-voiture-42.pdf',
    ]);
    expect(['it', 'en', 'fr'].map((l) => downloadName.quote(l as 'it', 'P-2026-000123'))).toEqual([
      'preventivo-P-2026-000123.pdf',
      'quote-P-2026-000123.pdf',
      'devis-P-2026-000123.pdf',
    ]);
    expect(['it', 'en', 'fr'].map((l) => downloadName.labels(l as 'it', 7, 'zpl'))).toEqual(['etichette-7.zpl', 'labels-7.zpl', 'etiquettes-7.zpl']);
    expect(downloadName.export('Richieste di trasporto', '2026-11-29', 'xlsx')).toBe('richieste-di-trasporto-2026-11-29.xlsx');
  });
});
