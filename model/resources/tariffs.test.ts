import { describe, expect, it } from 'vitest';
import { RESOURCES, resourceByName } from '../registry';
import { kindsFor } from '../permissions';
import { browserMessages } from '../resource';
import { TARIFF_TABLES, listColumns } from '../tariffs';
import { tariffResource } from './tariffs';

describe('tariff declarations (one function over model/tariffs.ts)', () => {
  it('declares each of the six tables from its spec: name, paths, fields by kind', () => {
    for (const spec of TARIFF_TABLES) {
      const decl = resourceByName(spec.route)!;
      expect(decl).toEqual(tariffResource(spec));
      expect(decl.table).toBe(spec.table);
      expect(decl.api).toEqual({ admin: `/admin/${spec.key}`, carrier: `/company/${spec.key}` });
      expect(decl.routes).toBe('custom');
      expect(decl.tenancy).toBe('custom');
      expect(Object.keys(decl.fields)).toEqual(['company_id', ...spec.columns.map((c) => c.name)]);
      for (const c of spec.columns) {
        const f = decl.fields[c.name];
        const want = { money: 'money', decimal: 'decimal', text: 'text', int: c.oneOf ? 'select' : 'integer' }[c.kind];
        expect(f.type, `${spec.key}.${c.name}`).toBe(want);
        if (c.kind === 'decimal') expect(f.scale).toBe(c.scale);
        if (c.kind === 'text') expect(f.maxLength).toBe(c.maxLength);
      }
      expect(listColumns(spec).every((c) => decl.fields[c.name].list !== false)).toBe(true);
    }
  });
  it('labels every field and the table in it/en/fr; the sidebar label is labels.many', () => {
    for (const spec of TARIFF_TABLES) {
      const decl = resourceByName(spec.route)!;
      for (const l of ['it', 'en', 'fr'] as const) {
        for (const name of Object.keys(decl.fields)) expect(decl.fieldLabels[l][name], `${l} ${spec.key}.${name}`).toBeTruthy();
        expect(browserMessages(decl)[l][`text-${spec.route}`]).toBe(decl.labels[l].many);
      }
    }
    expect(browserMessages(resourceByName('express-hub-costs')!).it['text-express-hub-costs']).toBe('Costi hub');
    expect(browserMessages(resourceByName('standard_no_passage')!).it['text-standard_no_passage']).toBe('Non transito');
  });
  it('gives the permissions the tariff screens had: admins and carriers, the end user only its own sheets', () => {
    for (const name of [...TARIFF_TABLES.map((t) => t.route), 'rate-sheets']) {
      expect(kindsFor(name, 'list')).toEqual(['admin', 'carrier']);
      expect(kindsFor(name, 'create')).toEqual(['admin', 'carrier']);
      expect(kindsFor(name, 'delete')).toEqual(['admin', 'carrier']);
    }
    expect(kindsFor('enduser-rate-sheets', 'list')).toEqual(['enduser']);
    expect(RESOURCES.filter((r) => r.routes === 'custom').map((r) => r.name)).toEqual([
      'rate-sheets',
      ...TARIFF_TABLES.map((t) => t.route),
      'companies',
      'user-management',
      'request-access',
      'enduser-rate-sheets',
      'audit-log',
    ]);
  });
});
