import { defineFields } from '../fields';

/** Currency (accounts document §3): name, code_alpha, symbol, active (default '0'). */
export const currencyFields = defineFields({
  name: { type: 'text', required: true, maxLength: 100 },
  code_alpha: { type: 'text', required: true, pattern: '^[A-Z]{3}$', maxLength: 3, upperCase: true, unique: true },
  symbol: { type: 'text', maxLength: 8 },
  active: { type: 'flag', default: '0' },
});
