import { defineFields } from '../fields';

/** Document type (accounts document §3): name, description, active (default '0'), created (a hidden column). */
export const documentTypeFields = defineFields({
  name: { type: 'text', required: true, maxLength: 100, unique: true },
  description: { type: 'text', maxLength: 255, multiline: true },
  active: { type: 'flag', default: '0' },
  created: { type: 'date', readOnly: true, list: 'hidden' },
});
