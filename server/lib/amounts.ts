/**
 * Amounts typed by people (calculator document §5 "Edit request": free text parsed as numbers) and
 * sent by clients: euros with a dot or a comma and at most two decimals, to integer cents exactly,
 * never through binary floats. Goods values (weights, sizes, volumes) to exact decimal text.
 */
const AMOUNT = /^(\d{1,9})(?:[.,](\d{1,2}))?$/;
const DECIMAL = /^(\d{1,9})(?:[.,](\d{1,3}))?$/;

const text = (v: unknown) => (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'x') : String(v ?? '').trim());

/** Euros to cents; null for an empty value; undefined when unreadable (negative, more than 2 decimals, words). */
export function parseCents(v: unknown): number | null | undefined {
  const s = text(v);
  if (s === '') return null;
  const m = AMOUNT.exec(s);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** A non-negative decimal as text with a dot ("12.5"); null for empty; undefined when unreadable. */
export function parseDecimal(v: unknown): string | null | undefined {
  const s = text(v);
  if (s === '') return null;
  const m = DECIMAL.exec(s);
  if (!m) return undefined;
  const int = String(Number(m[1]));
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

export const isPositiveDecimal = (d: string) => /[1-9]/.test(d);

/** Cents as euros for JSON answers (rounded to the cent by construction). */
export const euros = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : Math.round(cents) / 100);

/** Cents from a euro amount the pricing engine answered (a JSON number rounded to the cent). */
export const centsOf = (eurosValue: number) => Math.round(eurosValue * 100);
