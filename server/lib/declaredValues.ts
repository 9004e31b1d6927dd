import type { FieldDef, FieldsDecl } from '../../model/fields.js';
import { centsOf, euros } from './amounts.js';

/**
 * Numbers of generated resources as people type them (issue 34): `money` and `decimal` both read a decimal
 * comma or point (`12,50`, `12.5`, `12`), in a body, a filter or an imported cell. Money travels in euros and
 * lives in the table as integer cents; the one conversion each way is here (and rounds only through
 * server/lib/amounts.ts), so store, update, answers, filters, export and import agree.
 */

const NUMBER_TEXT = /^-?[0-9]+(?:[.,][0-9]+)?$/;

/** A number as exact text with a point (`"12,50"` → `"12.50"`, `12.5` → `"12.5"`); undefined when it is not one. */
export function numberText(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return NUMBER_TEXT.test(s) ? s.replace(',', '.') : undefined;
}

/**
 * Euros (a number, or text with a comma or a point) to integer cents; null for an empty value; undefined
 * when unreadable or finer than a cent (12.345 is refused, never rounded away silently).
 */
export function moneyCents(v: unknown): number | null | undefined {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  const t = numberText(v);
  if (t === undefined) return undefined;
  const [, frac = ''] = t.split('.');
  if (frac.replace(/0+$/, '').length > 2) return undefined;
  return centsOf(Number(t));
}

/** Cents from the table as euros for an answer (null stays null). */
export const moneyEuros = (cents: unknown) => (cents === null || cents === undefined ? null : euros(Number(cents)));

/**
 * Before the body schema: a money value typed as text becomes its number of euros (`"12,50"` → 12.5), so
 * the schema's number type and bounds (in euros) apply; unreadable text is left for the schema to refuse.
 */
export function readMoneyInput(fields: FieldsDecl, body: Record<string, unknown>) {
  for (const [name, f] of Object.entries(fields)) {
    if (f.type !== 'money' || typeof body[name] !== 'string') continue;
    const t = numberText(body[name]);
    if (t !== undefined) body[name] = Number(t);
  }
}

/** A value of a range filter or a cell, in the column's terms: money in cents, decimals and integers as numbers, dates as text. */
export function columnValue(f: FieldDef, v: string): string | number | undefined {
  if (f.type === 'money') return moneyCents(v) ?? undefined;
  if (f.type === 'decimal' || f.type === 'integer') {
    const t = numberText(v);
    return t === undefined ? undefined : Number(t);
  }
  return v;
}

/**
 * A checked body (or an import row) in the table's terms: money from euros to cents. Answers the values and
 * `validation.cents` problems for amounts finer than a cent (bounds and types were the schema's).
 */
export function columnValues(fields: FieldsDecl, body: Record<string, unknown>) {
  const values: Record<string, unknown> = { ...body };
  const problems: Record<string, { key: string }> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.type !== 'money' || values[name] === undefined) continue;
    const cents = moneyCents(values[name]);
    if (cents === undefined) problems[name] = { key: 'validation.cents' };
    else values[name] = cents;
  }
  return { values, problems };
}
