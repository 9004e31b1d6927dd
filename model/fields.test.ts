import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { bodySchemas, checkBounds, defaultsOf, defineFields, inputFields, listColumns, normalizeBody, uniqueFields } from './fields';

const decl = defineFields({
  name: { type: 'text', required: true, maxLength: 10, unique: true },
  code: { type: 'text', pattern: '^[A-Z]{3}$', upperCase: true },
  email: { type: 'email' },
  qty: { type: 'integer', min: 1, max: 5 },
  rate: { type: 'decimal', min: 0, max: 100 },
  fee: { type: 'money', min: 0 },
  active: { type: 'flag', default: '0' },
  kind: { type: 'select', options: ['A', 'B'], required: true },
  level: {
    type: 'select',
    options: [
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ],
  },
  country_id: { type: 'reference', reference: { resource: 'countries', optionText: 'en', lookup: 'country_list' } },
  day: { type: 'date', list: 'hidden' },
  password: { type: 'password', createOnly: true, list: false },
  created: { type: 'date', readOnly: true },
});

// The server's validator settings (server/app.ts).
const ajv = addFormats(new Ajv({ coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: true }));
const schemas = bodySchemas(decl);
const validate = (schema: object, body: Record<string, unknown>) => {
  const v = ajv.compile(schema);
  const b = normalizeBody(decl, { ...body });
  const ok = v(b);
  return { ok, body: b, fields: [...new Set((v.errors ?? []).map((e) => (e.instancePath.slice(1) || e.params.missingProperty) as string))].sort() };
};

describe('field declarations → server body schemas', () => {
  it('store: required fields, defaults, extra and read-only fields dropped', () => {
    const r = validate(schemas.store, { name: ' Acme ', kind: 'A', extra: 1, created: 'x', id: 5 });
    expect(r.ok).toBe(true);
    expect(r.body).toEqual({ name: 'Acme', kind: 'A', active: '0' });
  });
  it('update: the same checks, no defaults, and create-only fields left out', () => {
    const r = validate(schemas.update, { name: 'Acme', kind: 'B', password: 'secret123' });
    expect(r.ok).toBe(true);
    expect(r.body).toEqual({ name: 'Acme', kind: 'B' });
    expect(validate(bodySchemas(decl, { partialUpdate: true }).update, { qty: 2 }).ok).toBe(true);
    expect(validate(schemas.update, { qty: 2 }).fields).toEqual(['kind', 'name']);
  });
  it('refuses blank required text, bad formats, bounds and choices', () => {
    const r = validate(schemas.store, {
      name: '   ',
      code: 'ab',
      email: 'not-an-email',
      qty: 9,
      kind: 'C',
      level: 3,
      fee: -1,
      day: '2025-13-40',
      country_id: 0,
      password: 'short',
    });
    expect(r.ok).toBe(false);
    expect(r.fields).toEqual(['code', 'country_id', 'day', 'email', 'fee', 'kind', 'level', 'name', 'password', 'qty']);
  });
  it('coerces form text, upper-cases codes, lower-cases emails, turns empty optional values into null', () => {
    const r = validate(schemas.store, { name: 'x', kind: 'A', code: 'eur', qty: '3', email: ' Ops@Acme.IT ', rate: 12.5, fee: '', active: true, level: '2' });
    expect(r.ok).toBe(true);
    expect(r.body).toMatchObject({ code: 'EUR', qty: 3, email: 'ops@acme.it', rate: '12.5', fee: null, active: '1', level: 2 });
  });
  it('checks decimal bounds the schema cannot', () => {
    expect(checkBounds(decl, { rate: '100.5' })).toEqual({ rate: { key: 'validation.maximum', params: { limit: 100 } } });
    expect(checkBounds(decl, { rate: '-1' })).toEqual({ rate: { key: 'validation.minimum', params: { limit: 0 } } });
    expect(checkBounds(decl, { rate: '50' })).toEqual({});
  });
  it('answers the form inputs, list columns, defaults and unique fields', () => {
    expect(inputFields(decl, 'create').map(([k]) => k)).toContain('password');
    expect(inputFields(decl, 'edit').map(([k]) => k)).not.toContain('password');
    expect(inputFields(decl, 'edit').map(([k]) => k)).not.toContain('created');
    const cols = listColumns(decl);
    expect(cols.find((c) => c.name === 'day')?.hidden).toBe(true);
    expect(cols.map((c) => c.name)).not.toContain('password');
    expect(defaultsOf(decl)).toEqual({ active: '0' });
    expect(uniqueFields(decl)).toEqual(['name']);
  });
});
