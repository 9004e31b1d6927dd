import { describe, expect, it } from 'vitest';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { fuelPreviewText, fuelTexts, monthName, romeMonth } from './fuelPreview';

const t = (locale: 'it' | 'en' | 'fr') => polyglotI18nProvider(() => ({ resources: { companies: { fuel: fuelTexts[locale] } } }) as never, locale).translate;
const PLAN = { fuel_base_price: '1.507', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: '10' };
const ROWS = [
  { month: '2026-12', price: '1.700' },
  { month: '2026-11', price: '1.587' },
  { month: '2026-09', price: '1.520' },
];

describe('the fuel plan preview (issue 21)', () => {
  it('names this month’s price, the percent of fuelPercent and the steps, in it/en/fr', () => {
    expect(fuelPreviewText(PLAN, ROWS, '2026-11', 'it', t('it'))).toBe('Con il gasolio a 1,587 €/l (novembre 2026): +2 % (4 scatti da 0,020 €/l)');
    expect(fuelPreviewText(PLAN, ROWS, '2026-11', 'en', t('en'))).toBe('With diesel at €1.587/l (November 2026): +2% (4 steps of €0.020/l)');
    expect(fuelPreviewText(PLAN, ROWS, '2026-11', 'fr', t('fr'))).toBe('Avec le gazole à 1,587 €/l (novembre 2026) : +2 % (4 paliers de 0,020 €/l)');
  });

  it('falls back to the latest earlier month, named as such; decimals and one step in the locale', () => {
    expect(fuelPreviewText(PLAN, ROWS, '2026-10', 'it', t('it'))).toBe(
      'Con il gasolio a 1,520 €/l (settembre 2026, l’ultimo prezzo disponibile): +0 % (0 scatti da 0,020 €/l)',
    );
    const plan = { ...PLAN, fuel_step_percent: '1.25' };
    expect(fuelPreviewText(plan, [{ month: '2026-11', price: '1.530' }], '2026-11', 'it', t('it'))).toBe(
      'Con il gasolio a 1,530 €/l (novembre 2026): +1,25 % (1 scatto da 0,020 €/l)',
    );
  });

  it('caps at the maximum; numbers typed in the form work as text does', () => {
    const plan = { fuel_base_price: 1.2, fuel_step: 0.01, fuel_step_percent: 1, fuel_max_percent: 10 };
    expect(fuelPreviewText(plan, ROWS, '2026-12', 'it', t('it'))).toBe('Con il gasolio a 1,700 €/l (dicembre 2026): +10 % (50 scatti da 0,010 €/l)');
  });

  it('says when there is no plan, or no price yet', () => {
    expect(fuelPreviewText({ ...PLAN, fuel_step: '' }, ROWS, '2026-11', 'it', t('it'))).toBe('Nessun adeguamento gasolio');
    expect(fuelPreviewText({ ...PLAN, fuel_base_price: null }, ROWS, '2026-11', 'en', t('en'))).toBe('No fuel surcharge');
    expect(fuelPreviewText(PLAN, ROWS, '2026-08', 'it', t('it'))).toMatch(/^Non c’è ancora un prezzo del gasolio/);
    expect(fuelPreviewText(PLAN, [], '2026-11', 'fr', t('fr'))).toMatch(/^Il n’y a pas encore de prix du gazole/);
  });

  it('the month in Rome, and month names', () => {
    // 23:30 UTC on 31 October is already November in Rome (UTC+1).
    expect(romeMonth(new Date('2026-10-31T23:30:00Z'))).toBe('2026-11');
    expect(romeMonth(new Date('2026-06-30T21:59:00Z'))).toBe('2026-06');
    expect(monthName('2026-01', 'it')).toBe('gennaio 2026');
  });
});
