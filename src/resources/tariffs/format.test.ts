import { describe, expect, it } from 'vitest';
import { tariffTable } from '../../../model/tariffs';
import { tariffMessages } from './messages';
import { formatCell, formatDecimal, groupDigits } from './format';

const col = (table: string, name: string) => tariffTable(table)!.columns.find((c) => c.name === name)!;
const translator = (lang: 'it' | 'en' | 'fr') => (key: string) => {
  const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tariffMessages[lang]);
  if (typeof value !== 'string') throw new Error(`no message ${key} in ${lang}`);
  return value;
};
const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('tariff cells as a reader sees them', () => {
  it('spells out a postal surcharge’s kind, an empty flow and the percentage in each language', () => {
    const it_ = translator('it');
    expect(formatCell(col('postal_surcharges', 'kind'), 'remote', 'it', it_)).toBe('Località disagiata');
    expect(formatCell(col('postal_surcharges', 'kind'), 'ztl', 'it', it_)).toBe('ZTL');
    expect(formatCell(col('postal_surcharges', 'kind'), 'other', 'en', translator('en'))).toBe('Other');
    expect(formatCell(col('postal_surcharges', 'flow'), null, 'it', it_)).toBe('Entrambi');
    expect(formatCell(col('postal_surcharges', 'flow'), null, 'fr', translator('fr'))).toBe('Les deux');
    expect(formatCell(col('postal_surcharges', 'flow'), 'OUT', 'it', it_)).toBe('OUT');
    expect(nbsp(formatCell(col('postal_surcharges', 'percent'), '2.5', 'it', it_))).toBe('2,5 %');
    // A required flow is never empty in a stored row: no words are made up for it.
    expect(formatCell(col('standard_no_passage', 'flow'), '', 'it', it_)).toBe('');
  });

  it('groups thousands the same way for every number (1.000 beside 10.000, not 1000)', () => {
    expect(formatDecimal('1000', 'it')).toBe('1.000');
    expect(formatDecimal('10000', 'it')).toBe('10.000');
    expect(formatDecimal('1234.5', 'en')).toBe('1,234.5');
    expect(groupDigits(200000, 'it')).toBe('200.000');
    expect(groupDigits(200000, 'en')).toBe('200,000');
    expect(nbsp(groupDigits(200000, 'fr'))).toBe('200 000');
    expect(groupDigits(6, 'it')).toBe('6');
  });
});
