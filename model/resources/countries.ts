import { defineFields } from '../fields';

/**
 * Country (accounts document §3): the admin list's name, code_alpha, symbol, active (default '0'), and
 * the company-area modal's names in five languages and ISO codes, edited in the same modal.
 * code_alpha is the country's own code (the seed uses ISO alpha-2) and is unique.
 */
export const countryFields = defineFields({
  name: { type: 'text', required: true, maxLength: 100 },
  code_alpha: { type: 'text', required: true, pattern: '^[A-Z]{2,3}$', maxLength: 3, upperCase: true, unique: true },
  symbol: { type: 'text', maxLength: 8 },
  active: { type: 'flag', default: '0' },
  de: { type: 'text', maxLength: 100, list: 'hidden' },
  en: { type: 'text', maxLength: 100, list: 'hidden' },
  es: { type: 'text', maxLength: 100, list: 'hidden' },
  fr: { type: 'text', maxLength: 100, list: 'hidden' },
  it: { type: 'text', maxLength: 100, list: 'hidden' },
  iso_alpha_2: { type: 'text', pattern: '^[A-Z]{2}$', maxLength: 2, upperCase: true, list: 'hidden' },
  iso_alpha_3: { type: 'text', pattern: '^[A-Z]{3}$', maxLength: 3, upperCase: true, list: 'hidden' },
  un_code: { type: 'text', pattern: '^[0-9]{3}$', maxLength: 3, list: 'hidden' },
});
