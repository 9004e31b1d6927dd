/**
 * Exact money and decimal arithmetic for the pricing engine (pricing.md §0).
 *
 * - Money is an integer number of euro cents (`Cents`). Integers up to 2^53 are exact in a JS number.
 * - Percentages, multipliers, volumes and ratios are parsed from their decimal text into a scaled BigInt
 *   (`Dec`), so no binary-float error ever enters a computation.
 * - There is exactly ONE rounding rule: `roundHalfUp` (half-up to the unit of the denominator; for negative
 *   values half away from zero, i.e. symmetric). Every money rounding goes through it.
 * - JS numbers given as input are converted with `String(n)`, which yields the shortest decimal text that
 *   round-trips (1.2 -> "1.2"), so `ceilKg(1.2, 300)` is exactly 360. A number that is already a float
 *   artefact (0.30000000000000004) is taken literally: pass the request's decimal text when you have it.
 */

export type Cents = number;

/** An exact decimal: value = n / 10^scale, scale >= 0. */
export interface Dec {
  readonly n: bigint;
  readonly scale: number;
}

export type DecimalInput = string | number | bigint;

/** A non-negative percent of at most 4 decimals as text ("12.5", "0", "3.25"): percentOf's fast path. */
const PLAIN_PERCENT = /^(\d{1,3})(?:\.(\d{1,4}))?$/;
const DEC_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const POW10: bigint[] = [1n];

/** 10^k as a BigInt (cached). */
export function pow10(k: number): bigint {
  if (k < 0 || !Number.isInteger(k)) throw new RangeError(`pow10: bad exponent ${k}`);
  while (POW10.length <= k) POW10.push(POW10[POW10.length - 1]! * 10n);
  return POW10[k]!;
}

/** True for null, undefined and blank strings: "empty" tariff / settings cells. */
export function isBlank(v: unknown): v is null | undefined | '' {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/** Parses decimal text ("80.00", "4.5", "-1", "1e3") or a finite number exactly. Throws RangeError otherwise. */
export function parseDecimal(v: DecimalInput): Dec {
  if (typeof v === 'bigint') return { n: v, scale: 0 };
  let text: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
    text = String(v);
  } else {
    text = v.trim();
  }
  const m = DEC_RE.exec(text);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) throw new RangeError(`not a decimal: "${String(v)}"`);
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  const exp = m[4] ? Number.parseInt(m[4], 10) : 0;
  let n = BigInt(intPart + fracPart || '0');
  if (m[1] === '-') n = -n;
  let scale = fracPart.length - exp;
  if (scale < 0) {
    n *= pow10(-scale);
    scale = 0;
  }
  return { n, scale };
}

/** THE rounding helper: num/den rounded half-up (half away from zero for negatives). den must be > 0. */
export function roundHalfUp(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError('roundHalfUp: denominator must be positive');
  const q = num / den;
  const r = num % den;
  const absR = r < 0n ? -r : r;
  if (2n * absR >= den) return num < 0n ? q - 1n : q + 1n;
  return q;
}

/** ceil(num/den) for den > 0. */
export function ceilDiv(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError('ceilDiv: denominator must be positive');
  const q = num / den;
  return num > 0n && num % den !== 0n ? q + 1n : q;
}

function toSafeNumber(b: bigint): number {
  const n = Number(b);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount out of range: ${b}`);
  return n;
}

/** Decimal euros ("80.00", 80, "4.5", "130.905") to cents, half-up when more than 2 decimals. */
export function toCents(v: DecimalInput): Cents {
  const d = parseDecimal(v);
  return toSafeNumber(roundHalfUp(d.n * 100n, pow10(d.scale)));
}

/** Like toCents but maps an empty cell (null, undefined, '') to null. */
export function toCentsOrNull(v: DecimalInput | null | undefined): Cents | null {
  return isBlank(v) ? null : toCents(v);
}

/**
 * The fast paths' operand (percentOf, applyPercent, mulCents; issue 37): a plain decimal text of at most 4
 * places and at most 400, as an integer count of ten-thousandths; null for anything else (the BigInt paths).
 */
export function tenThousandths(v: DecimalInput): number | null {
  if (typeof v !== 'string') return null;
  // PLAIN_PERCENT read character by character (issue 37: its match and the digits' Number()s were a tenth of
  // the express engine's time); money.test.ts compares the two on random texts.
  const n = v.length;
  let i = 0;
  let whole = 0;
  for (; i < n && i < 4; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    whole = whole * 10 + d;
  }
  if (i === 0 || i > 3) return null;
  let frac = 0;
  if (i < n) {
    if (v.charCodeAt(i) !== 46) return null;
    const start = ++i;
    for (; i < n; i++) {
      const d = v.charCodeAt(i) - 48;
      if (d < 0 || d > 9 || i - start >= 4) return null;
      frac = frac * 10 + d;
    }
    if (i === start) return null;
    for (let k = i - start; k < 4; k++) frac *= 10;
  }
  const h = whole * 10_000 + frac;
  return h <= 4_000_000 ? h : null;
}

/** tenThousandths by PLAIN_PERCENT, as it was (exported for the test that compares the two). */
export function tenThousandthsByPattern(v: DecimalInput): number | null {
  if (typeof v !== 'string') return null;
  const m = PLAIN_PERCENT.exec(v);
  if (!m) return null;
  const h = Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
  return h <= 4_000_000 ? h : null;
}

/**
 * num / den rounded half-up (away from zero below it), as roundHalfUp, for an integer `num` below 2^53 in
 * magnitude (the callers' bounds keep it there): the remainder and the exact quotient are integers a double
 * holds, so the result is the BigInt path's.
 */
function roundExactly(num: number, den: number): number {
  const r = num % den;
  const q = (num - r) / den;
  return 2 * Math.abs(r) >= den ? (num < 0 ? q - 1 : q + 1) : q + 0;
}

/** cents × factor (exact decimal), rounded half-up to the cent. */
export function mulCents(c: Cents, factor: DecimalInput): Cents {
  // Fast path (issue 37: the visitors' multiplier, on every class of a public quote): as percentOf's, a plain
  // factor of up to 4 decimals, at most 400, on an amount below 2^30 cents: cents × factor·10^4 stays below
  // 2^53, so the double arithmetic is exact and rounds as the BigInt path below does.
  const h = Number.isSafeInteger(c) && Math.abs(c) < 2 ** 30 ? tenThousandths(factor) : null;
  if (h !== null) return roundExactly(c * h, 10_000);
  return mulCentsExactly(c, factor);
}

/** mulCents in BigInts, for any decimal (exported for the tests that compare the fast path with it). */
export function mulCentsExactly(c: Cents, factor: DecimalInput): Cents {
  const f = parseDecimal(factor);
  return toSafeNumber(roundHalfUp(BigInt(c) * f.n, pow10(f.scale)));
}

/** cents × percent / 100, rounded half-up to the cent (e.g. an ADR surcharge). */
export function percentOf(c: Cents, percent: DecimalInput): Cents {
  // Fast path (issue 37: the fuel amount of every quote): a plain percent of up to 4 decimals, at most 400,
  // on an amount below 2^31 cents. Then cents × percent·10^4 stays below 2^53, so the product, its
  // remainder by 10^6 and the exact quotient are integers a double holds exactly: the same half-up
  // result as the BigInt path, without parsing into BigInts.
  const h = Number.isSafeInteger(c) && Math.abs(c) < 2 ** 31 ? tenThousandths(percent) : null;
  if (h !== null) return roundExactly(c * h, 1_000_000);
  const p = parseDecimal(percent);
  return toSafeNumber(roundHalfUp(BigInt(c) * p.n, pow10(p.scale) * 100n));
}

/** cents × (1 + percent/100) (direction +1) or × (1 − percent/100) (direction −1), rounded half-up. */
export function applyPercent(c: Cents, percent: DecimalInput, direction: 1 | -1): Cents {
  // Fast path (issue 37: every class of an end user's quote with an increase or a decrease): as percentOf's,
  // a plain percent of up to 4 decimals, at most 400, on an amount below 2^30 cents: cents × (10^6 ± percent·10^4)
  // stays below 2^53, so the double arithmetic is exact and rounds as the BigInt path below does.
  const h = Number.isSafeInteger(c) && Math.abs(c) < 2 ** 30 ? tenThousandths(percent) : null;
  if (h !== null) return roundExactly(c * (direction === 1 ? 1_000_000 + h : 1_000_000 - h), 1_000_000);
  return applyPercentExactly(c, percent, direction);
}

/** applyPercent in BigInts, for any decimal (exported for the tests that compare the fast path with it). */
export function applyPercentExactly(c: Cents, percent: DecimalInput, direction: 1 | -1): Cents {
  const p = parseDecimal(percent);
  const den = pow10(p.scale) * 100n;
  const factor = direction === 1 ? den + p.n : den - p.n;
  return toSafeNumber(roundHalfUp(BigInt(c) * factor, den));
}

/** Cents to a JSON number in euros: 13090 -> 130.9 (c/100 is the double nearest the exact decimal). */
export function centsToNumber(c: Cents): number {
  return c / 100;
}

export function centsToNumberOrNull(c: Cents | null): number | null {
  return c === null ? null : centsToNumber(c);
}

/** ceil(volume × ratio) to the kg, computed exactly: ceilKg(1.2, 300) === 360, never 361. */
export function ceilKg(volume: DecimalInput, ratio: DecimalInput = 1): number {
  // Fast path (issue 37: the BigInts of every standard quote's two lanes): both plain decimals of at most 15
  // characters, read as an integer and its scale; when their product is a safe integer the double arithmetic
  // is exact (product, remainder, quotient) and rounds up as the BigInt path does (money.test.ts compares them).
  const a = plainDecimal(volume);
  const b = a && plainDecimal(ratio);
  if (a && b && a.scale + b.scale <= 15) {
    const p = a.n * b.n;
    if (Number.isSafeInteger(p)) {
      const d = 10 ** (a.scale + b.scale);
      const r = p % d;
      const q = (p - r) / d;
      return r > 0 ? q + 1 : q + 0;
    }
  }
  return ceilKgExactly(volume, ratio);
}

/** A plain decimal (text or number) of at most 15 characters as an integer and its scale ("2.10" → 210, 2); else null. */
function plainDecimal(v: DecimalInput): { n: number; scale: number } | null {
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  if (text.length === 0 || text.length > 15 || !isShortDecimal(text)) return null;
  const dot = text.indexOf('.');
  if (dot < 0) return { n: Number(text), scale: 0 };
  return { n: Number(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

/** ceilKg in BigInts, for any decimal (exported for the test that compares the fast path with it). */
export function ceilKgExactly(volume: DecimalInput, ratio: DecimalInput = 1): number {
  const a = parseDecimal(volume);
  const b = parseDecimal(ratio);
  return toSafeNumber(ceilDiv(a.n * b.n, pow10(a.scale + b.scale)));
}

/** ceil(weight / 100): the number of started quintals (100 kg), exactly. */
export function ceilQuintals(weight: DecimalInput): number {
  const w = parseDecimal(weight);
  return toSafeNumber(ceilDiv(w.n, pow10(w.scale) * 100n));
}

/** Compares two decimals exactly: -1, 0 or 1. */
const SHORT_DEC = /^-?\d+(?:\.\d+)?$/;

/**
 * The double of a value that compares exactly as one, else NaN: a finite number (it stands for the
 * decimal String() gives it, the shortest that reads back as that double), or plain decimal text of at
 * most 15 characters (at most 15 digits: two such decimals never share a double, and one shares a
 * double with a number only when it is that number's decimal). Rounding to doubles keeps the order, so
 * when both sides have one, comparing the doubles is comparing the decimals.
 */
export function exactDouble(v: DecimalInput): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : Number.NaN;
  return typeof v === 'string' && v.length <= 15 && isShortDecimal(v) ? Number(v) : Number.NaN;
}

/**
 * SHORT_DEC's test, character by character (issue 37: the regex ran for every pallet measure and limit and was
 * a tenth of the express engine's time); money.test.ts compares the two on random texts.
 */
export function isShortDecimal(v: string): boolean {
  const n = v.length;
  let i = n > 0 && v.charCodeAt(0) === 45 ? 1 : 0;
  const digits = i;
  while (i < n && v.charCodeAt(i) >= 48 && v.charCodeAt(i) <= 57) i++;
  if (i === digits) return false;
  if (i === n) return true;
  if (v.charCodeAt(i) !== 46) return false;
  const frac = ++i;
  while (i < n && v.charCodeAt(i) >= 48 && v.charCodeAt(i) <= 57) i++;
  return i === n && i > frac;
}

/** SHORT_DEC itself, for the test that compares isShortDecimal with it. */
export const SHORT_DECIMAL = SHORT_DEC;

/** Throws RangeError unless `v` is a decimal parseDecimal reads; plain short decimal text is accepted without parsing it into BigInts. */
export function assertDecimal(v: DecimalInput): void {
  if (typeof v === 'string' && v.length <= 15 && isShortDecimal(v)) return;
  parseDecimal(v);
}

export function compareDecimal(a: DecimalInput, b: DecimalInput): -1 | 0 | 1 {
  // fast path: every pallet of a quote is compared with its band limits this way (issue 11's budget)
  const fa = exactDouble(a);
  const fb = exactDouble(b);
  if (fa === fa && fb === fb) return fa < fb ? -1 : fa > fb ? 1 : 0;
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const s = Math.max(x.scale, y.scale);
  const xn = x.n * pow10(s - x.scale);
  const yn = y.n * pow10(s - y.scale);
  return xn < yn ? -1 : xn > yn ? 1 : 0;
}
