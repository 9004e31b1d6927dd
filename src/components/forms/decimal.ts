/**
 * Decimal numbers as people type them in each of the portal's languages (issue 35: `1,634` typed in the
 * diesel price became 1634, answered by the browser's English bubble). The inputs are plain text boxes
 * (inputMode decimal): the browser's number box reads only its own locale's mark and says so in its own
 * language.
 *
 * The rule, per language (it, fr: comma; en: point):
 * - the user's decimal mark is the decimal mark (1,634 in Italian and French, 1.634 in English);
 * - with both marks, the last one is the decimal mark and the other groups thousands (1.234,5 / 1,234.5);
 * - in Italian and French a lone point is read as a decimal point too: keypads and habits type it, the
 *   portal's prices are small numbers, and the value is written back with a comma on leaving the field, so
 *   the reading is visible;
 * - in English a comma groups thousands only in groups of three (1,500 is 1500); any other comma is refused
 *   with a message, never dropped silently;
 * - spaces (the French thousands separator too) are ignored.
 *
 * Quantities (`{ quantity: true }`: the booking's weights and volumes) read the other language's mark by what
 * follows it: before exactly three digits it groups thousands (`1.500` kg in Italian is 1500, `1,500` in
 * English too), otherwise it is a decimal mark (`2.4` on an Italian keypad, `350,5` in English). Prices keep
 * the rule above: the diesel price `1.634` typed in Italian is 1,634 € a litre, not 1634.
 */
export type DecimalReading = number | null | string;

const MARK: Record<string, ',' | '.'> = { it: ',', fr: ',', en: '.' };
export const decimalMark = (locale: string) => MARK[locale] ?? ',';

const GROUPED = (sep: string) => new RegExp(`^\\d{1,3}(?:\\${sep}\\d{3})+$`);

/** The number a typed text means: a number, null for nothing typed, or the text itself when it reads as no number. */
export function readDecimal(text: unknown, locale: string, opts: { quantity?: boolean } = {}): DecimalReading {
  if (text === null || text === undefined) return null;
  if (typeof text === 'number') return Number.isFinite(text) ? text : String(text);
  const raw = String(text);
  const t = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (!t) return null;
  const sign = /^[+-]/.test(t) ? (t[0] === '-' ? '-' : '') : '';
  const body = t.replace(/^[+-]/, '');
  const mine = decimalMark(locale);
  let intPart: string;
  let frac = '';
  const lastComma = body.lastIndexOf(',');
  const lastPoint = body.lastIndexOf('.');
  if (lastComma >= 0 && lastPoint >= 0) {
    const dec = lastComma > lastPoint ? ',' : '.';
    const group = dec === ',' ? '.' : ',';
    const at = body.lastIndexOf(dec);
    intPart = body.slice(0, at);
    frac = body.slice(at + 1);
    if (!GROUPED(group).test(intPart)) return raw;
    intPart = intPart.split(group).join('');
  } else if (lastComma >= 0 || lastPoint >= 0) {
    const sep = lastComma >= 0 ? ',' : '.';
    const parts = body.split(sep);
    if (parts.length > 2) {
      // 1.234.567: thousands only
      if (!GROUPED(sep).test(body)) return raw;
      intPart = parts.join('');
    } else if (sep === mine) {
      [intPart, frac] = parts;
    } else if (opts.quantity) {
      // the other language's mark: thousands before exactly three digits, else a decimal mark
      if (GROUPED(sep).test(body)) intPart = parts.join('');
      else [intPart, frac] = parts;
    } else if (mine === ',') {
      [intPart, frac] = parts;
    } else {
      // a comma in English: thousands in groups of three, nothing else
      if (!GROUPED(sep).test(body)) return raw;
      intPart = parts.join('');
    }
  } else intPart = body;
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(frac) || (!intPart && !frac)) return raw;
  const n = Number(`${sign}${intPart || '0'}${frac ? `.${frac}` : ''}`);
  return Number.isFinite(n) ? n : raw;
}

/** A stored value (a number, or decimal text such as "1.587" from the server) as the user's language writes it in an input: 1,587 / 1.587. */
export function showDecimal(value: unknown, locale: string): string {
  if (value === null || value === undefined || value === '') return '';
  const text = typeof value === 'number' ? String(value) : String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  return decimalMark(locale) === ',' ? text.replace('.', ',') : text;
}
