import type { FastifyRequest } from 'fastify';
import { choiceOf, listColumns, referenceTextKey, type FieldDef } from '../../model/fields.js';
import { LANGS, type Lang, type ResourceDecl } from '../../model/resource.js';
import { hasMessage, translate } from '../i18n/index.js';
import type { CellKind, ExportColumn } from './listExport.js';
import { romeDate } from './romeTime.js';

type Row = Record<string, unknown>;

/** A header from a message key, in every language. */
export const messageHeader = (key: string): Record<Lang, string> => Object.fromEntries(LANGS.map((l) => [l, translate(l, key)])) as Record<Lang, string>;

const KIND: Partial<Record<FieldDef['type'], CellKind>> = { integer: 'int', decimal: 'number', money: 'money', date: 'date', month: 'month' };

/** A label as a column header: its first letter upper case ("azienda" → "Azienda"). */
const headed = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The export columns of a declaration's list (model/fields.ts `listColumns`: shown and hidden ones, never
 * images, files or passwords), headed by its field labels: numbers as numbers, money in euros (the rows
 * hold cents), dates and months as dates (a month is its first day, shown mm/yyyy), flags and booleans as
 * words, a select as its option's label, a reference as the referenced row's display text (issue 34: the
 * rows carry it under `referenceTextKey`, as the list answers do, in the caller's language when the
 * referenced resource names its rows per language: declaredScope.ts `languageColumns`). `company`: a first column with the
 * owning company's name (an admin's export of a company-tenancy resource, which spans companies).
 */
export function declaredExportColumns(decl: ResourceDecl, req: FastifyRequest, opts: { company?: boolean } = {}): ExportColumn<Row>[] {
  const cols: ExportColumn<Row>[] = [];
  if (opts.company) cols.push({ header: headerOf('field.company_id'), kind: 'text', value: (r) => r.company_name ?? null });
  for (const { name, field } of listColumns(decl.fields)) {
    if (field.type === 'image' || field.type === 'file' || field.type === 'password') continue;
    const header = Object.fromEntries(LANGS.map((l) => [l, decl.fieldLabels[l][name] ?? name])) as Record<Lang, string>;
    cols.push({ header, kind: KIND[field.type] ?? 'text', value: valueOf(name, field, req, decl) });
  }
  return cols;
}

const headerOf = (key: string): Record<Lang, string> => Object.fromEntries(LANGS.map((l) => [l, headed(translate(l, key))])) as Record<Lang, string>;

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
    case 'reference': {
      const text = referenceTextKey(name);
      return (r) => r[text] ?? null;
    }
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
