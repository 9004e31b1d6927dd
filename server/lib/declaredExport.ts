import type { FastifyRequest } from 'fastify';
import { choiceOf, listColumns, type FieldDef } from '../../model/fields.js';
import { LANGS, type Lang, type ResourceDecl } from '../../model/resource.js';
import { hasMessage, translate } from '../i18n/index.js';
import type { CellKind, ExportColumn } from './listExport.js';
import { romeDate } from './romeTime.js';

type Row = Record<string, unknown>;

/** A header from a message key, in every language. */
export const messageHeader = (key: string): Record<Lang, string> => Object.fromEntries(LANGS.map((l) => [l, translate(l, key)])) as Record<Lang, string>;

const KIND: Partial<Record<FieldDef['type'], CellKind>> = { integer: 'int', decimal: 'number', money: 'money', date: 'date', month: 'month' };

/**
 * The export columns of a declaration's list (model/fields.ts `listColumns`: shown and hidden ones, never
 * images, files or passwords), headed by its field labels: numbers as numbers, money in euros, dates and
 * months as dates (a month is its first day, shown mm/yyyy), flags and booleans as words, a select as its option's label.
 * A reference has no name here: a declaration whose list shows one gives its own columns (`custom` routes).
 */
export function declaredExportColumns(decl: ResourceDecl, req: FastifyRequest): ExportColumn<Row>[] {
  const cols: ExportColumn<Row>[] = [];
  for (const { name, field } of listColumns(decl.fields)) {
    if (field.type === 'image' || field.type === 'file' || field.type === 'password') continue;
    if (field.type === 'reference') throw new Error(`${decl.name}.${name}: a generated export cannot name a reference`);
    const header = Object.fromEntries(LANGS.map((l) => [l, decl.fieldLabels[l][name] ?? name])) as Record<Lang, string>;
    cols.push({ header, kind: KIND[field.type] ?? 'text', value: valueOf(name, field, req, decl) });
  }
  return cols;
}

function valueOf(name: string, f: FieldDef, req: FastifyRequest, decl: ResourceDecl): (r: Row) => unknown {
  switch (f.type) {
    case 'flag':
      return (r) => (r[name] === null || r[name] === undefined ? null : req.t(String(r[name]) === '1' ? 'export.active' : 'export.inactive'));
    case 'boolean':
      return (r) => (r[name] === null || r[name] === undefined ? null : req.t(r[name] ? 'export.yes' : 'export.no'));
    case 'date':
      // A read-only date is the row's creation instant (`created`): its Rome day.
      if (f.readOnly) return (r) => (r.created_at ? romeDate(String(r.created_at)) : (r[name] ?? null));
      return (r) => r[name];
    case 'select': {
      const choices = (f.options ?? []).map(choiceOf);
      return (r) => {
        const c = choices.find((o) => String(o.id) === String(r[name]));
        return c ? (hasMessage(c.name) ? req.t(c.name) : c.name) : r[name];
      };
    }
    default:
      return decl.createdAlias && name === 'created' ? (r) => r.created_at : (r) => r[name];
  }
}
