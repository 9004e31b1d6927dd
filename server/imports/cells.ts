import type { Cell } from './read/types.js';
import type { ColumnSpec } from '../../model/tariffs.js';
import { canonicalIsland, isProvinceSigla } from '../../model/tariffPlaces.js';
import { compareDecimal, parseDecimal, pow10, roundHalfUp, toCents } from '../pricing/money.js';
import { normalizePostalCode } from '../pricing/places.js';
import { hasInvisible, INVISIBLE_RANGES, mayHaveInvisible } from '../lib/invisibleText.js';

/** What one cell turned into: a stored value (null = empty), or a message key with params. */
export type CellResult = { ok: true; value: string | number | null } | { ok: false; key: string; params?: Record<string, unknown> };

export interface CellContext {
  /** Known ISO alpha-2 codes (from the countries table); any two letters when absent. */
  countries?: ReadonlySet<string>;
  /** Known province siglas (from the provinces table); the built-in list when absent. */
  provinces?: ReadonlySet<string>;
}

const ok = (value: string | number | null): CellResult => ({ ok: true, value });
const bad = (key: string, params?: Record<string, unknown>): CellResult => ({ ok: false, key, params });

/**
 * A number cell as decimal text. Spreadsheets store binary doubles, so 12.3 may arrive as
 * 12.300000000000001: 15 significant digits (what Excel itself shows) give back the typed value.
 * Also the declared resources' import (lib/declaredImport.ts): one reading of number cells.
 */
export function numberText(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toPrecision(15)));
}

/**
 * Decimal text from a text cell: "12,50" (a single decimal comma, the Italian habit), "€ 12.50", and
 * grouped thousands with the other mark as decimal ("1.234,50", "1,234.50") accepted. Also the declared
 * resources' import (lib/declaredImport.ts), which checks the result itself.
 */
export function decimalText(s: string): string {
  let t = s.replace(/€/g, '').replace(/\s+/g, '');
  if (!t.includes('.') && /^[+-]?\d*,\d+$/.test(t)) t = t.replace(',', '.');
  else if (/^[+-]?\d{1,3}(\.\d{3})+,\d+$/.test(t)) t = t.replace(/\./g, '').replace(',', '.');
  else if (/^[+-]?\d{1,3}(,\d{3})+\.\d+$/.test(t)) t = t.replace(/,/g, '');
  return t;
}

/** The cell's raw content: a trimmed non-empty string, a number, or null; booleans and errors as markers. */
function raw(cell: Cell | undefined): string | number | null | { error: true } | { bool: boolean } {
  if (!cell || cell.v === undefined || cell.v === null) return null;
  if (cell.t === 'e') return { error: true };
  if (cell.t === 'b') return { bool: Boolean(cell.v) };
  if (typeof cell.v === 'number') return Number.isFinite(cell.v) ? cell.v : { error: true };
  const s = String(cell.v).trim();
  return s === '' ? null : s;
}

/** Decimal text rounded half-up to `scale` places, without trailing zeros ("1.10" -> "1.1"). */
function roundDecimal(text: string, scale: number): string {
  const d = parseDecimal(text);
  const n = d.scale > scale ? roundHalfUp(d.n, pow10(d.scale - scale)) : d.n * pow10(scale - d.scale);
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(scale + 1, '0');
  let int = digits.slice(0, digits.length - scale);
  const frac = scale ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  if (int === '') int = '0';
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

function normalizeText(col: ColumnSpec, text: string, wasNumber: boolean, ctx: CellContext): CellResult {
  let v = text.trim();
  // A zone or city named with a text-direction override or a zero-width character would show disguised in
  // the lists, exports and quotes (issue 31, as every request body): refused, naming the characters.
  if (mayHaveInvisible(v) && hasInvisible(v)) return bad('import.invisible', { ranges: INVISIBLE_RANGES });
  switch (col.norm) {
    case 'upper':
      v = v.toUpperCase();
      break;
    case 'lower':
      v = v.toLowerCase();
      break;
    case 'postal':
      v = normalizePostalCode(v);
      if (wasNumber && /^\d{1,4}$/.test(v)) v = v.padStart(5, '0');
      break;
    case 'code':
      v = normalizePostalCode(v);
      break;
    case 'postalPrefix':
      // pricing.md §8: an exact code, or a prefix ending in a single * ("301*")
      v = normalizePostalCode(v);
      if (!/^[A-Z0-9]+\*?$/.test(v)) return bad('import.postalPrefix', { value: text });
      if (wasNumber && /^\d{1,4}$/.test(v)) v = v.padStart(5, '0');
      break;
    case 'province':
      v = v.toUpperCase();
      if (!(ctx.provinces ? ctx.provinces.has(v) : isProvinceSigla(v))) return bad('import.province', { value: text });
      break;
    case 'country':
      v = v.toUpperCase();
      if (!/^[A-Z]{2}$/.test(v) || (ctx.countries && !ctx.countries.has(v))) return bad('import.country', { value: text });
      break;
    case 'island': {
      const name = canonicalIsland(v);
      if (!name) return bad('import.island', { value: text });
      v = name;
      break;
    }
    default:
      break;
  }
  if (v === '') return ok(null);
  if (col.maxLength && v.length > col.maxLength) return bad('import.maxLength', { limit: col.maxLength });
  return ok(v);
}

/** Plain decimal text (no exponent), the shape of nearly every cell: read without BigInt arithmetic. */
const PLAIN = /^(-?)(\d{1,12})(?:\.(\d{0,12}))?$/;
const below = (col: ColumnSpec) => (col.min === 0 ? bad('import.negative') : bad('import.min', { limit: col.min }));

/** The fast path: the same results as exactNumber for plain text of at most 12 + 12 digits. */
export function plainNumber(col: ColumnSpec, m: RegExpExecArray, r: string | number): CellResult {
  const neg = m[1] === '-';
  const int = m[2];
  const frac = m[3] ?? '';
  if (col.kind === 'money') {
    // half-up to the cent: the third decimal decides
    const cents = Number(int) * 100 + Number((frac + '00').slice(0, 2)) + (frac.length > 2 && frac.charCodeAt(2) >= 53 ? 1 : 0);
    if (neg && cents > 0) return bad('import.negative');
    if (cents > 1e11) return bad('import.number', { value: String(r) });
    return ok(cents);
  }
  if (col.kind === 'int') {
    if (/[1-9]/.test(frac)) return bad('import.integer', { value: String(r) });
    const n = (neg ? -1 : 1) * Number(int);
    if (Math.abs(n) > 1e9) return bad('import.integer', { value: String(r) });
    if (col.min !== undefined && n < col.min) return below(col);
    return ok(n === 0 ? 0 : n);
  }
  const scale = col.scale ?? 4;
  if (frac.length > scale) return exactNumber(col, m[0], r);
  const i = int.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/0+$/, '');
  const zero = /^0+$/.test(int) && f === '';
  const v = `${neg && !zero ? '-' : ''}${i}${f ? `.${f}` : ''}`;
  if (col.min !== undefined && (col.min === 0 ? v.startsWith('-') : compareDecimal(v, col.min) < 0)) return below(col);
  if (i.length > 9) return bad('import.number', { value: String(r) });
  return ok(v);
}

/** Any decimal text (exponents, many digits), read exactly. */
export function exactNumber(col: ColumnSpec, text: string, r: string | number): CellResult {
  try {
    parseDecimal(text);
  } catch {
    return bad(col.kind === 'int' ? 'import.integer' : 'import.number', { value: String(r) });
  }
  if (col.kind === 'money') {
    const cents = toCents(text);
    if (cents < 0) return bad('import.negative');
    if (!Number.isSafeInteger(cents) || cents > 1e11) return bad('import.number', { value: String(r) });
    return ok(cents);
  }
  if (col.kind === 'int') {
    const d = parseDecimal(text);
    if (d.n % pow10(d.scale) !== 0n) return bad('import.integer', { value: String(r) });
    const n = Number(d.n / pow10(d.scale));
    if (!Number.isSafeInteger(n) || Math.abs(n) > 1e9) return bad('import.integer', { value: String(r) });
    if (col.min !== undefined && n < col.min) return below(col);
    return ok(n);
  }
  const v = roundDecimal(text, col.scale ?? 4);
  if (col.min !== undefined && compareDecimal(v, col.min) < 0) return below(col);
  if (v.replace(/^-/, '').split('.')[0].length > 9) return bad('import.number', { value: String(r) });
  return ok(v);
}

/**
 * A cell of an int column with words (type_id: SILVER, GOLD): the word in any case, or one of the numbers
 * ("2", 2, 2.0); anything else is refused naming the words and the numbers allowed (not "not a whole number").
 */
function wordCell(col: ColumnSpec, words: Readonly<Record<string, number>>, r: string | number): CellResult {
  const allowed = col.oneOf ?? Object.values(words);
  let n: number | undefined;
  if (typeof r === 'number') n = r;
  else {
    const t = r.trim().toUpperCase();
    n = Object.hasOwn(words, t) ? words[t] : /^\d{1,3}(\.0*)?$/.test(t) ? Number(t) : undefined;
  }
  if (n !== undefined && allowed.includes(n)) return ok(n);
  return bad('import.words', { value: String(r), words: Object.keys(words).join(', '), numbers: allowed.join(', ') });
}

/** Reads, validates and normalises one cell for its column. */
export function readCell(col: ColumnSpec, cell: Cell | undefined, ctx: CellContext): CellResult {
  const r = raw(cell);
  if (r === null) return col.required ? bad('import.required') : ok(col.ifEmpty ?? null);
  if (col.words && typeof r !== 'object') return wordCell(col, col.words, r);
  if (typeof r === 'object')
    return bad('error' in r ? 'import.cellError' : col.kind === 'text' ? 'import.text' : 'import.number', { value: 'bool' in r ? String(r.bool) : '' });

  let result: CellResult;
  if (col.kind === 'text') {
    result = normalizeText(col, typeof r === 'number' ? numberText(r) : r, typeof r === 'number', ctx);
  } else {
    const text = typeof r === 'number' ? numberText(r) : decimalText(r);
    const fast = PLAIN.exec(text);
    result = fast ? plainNumber(col, fast, r) : exactNumber(col, text, r);
    if (!result.ok) return result;
  }
  if (result.ok && col.required && result.value === null) return bad('import.required');
  if (result.ok && result.value === null && col.ifEmpty !== undefined) return ok(col.ifEmpty);
  if (result.ok && result.value !== null && col.oneOf && !col.oneOf.includes(result.value as never)) {
    return bad('import.oneOf', { values: col.oneOf.join(', '), value: String(r) });
  }
  return result;
}
