import { defineFields } from '../fields';

/** Transport class (accounts document §3): name, created (a hidden column). */
export const transportClassFields = defineFields({
  name: { type: 'text', required: true, maxLength: 100, unique: true },
  created: { type: 'date', readOnly: true, list: 'hidden' },
});
