/**
 * The fuel surcharge percent (pricing.md §7), one function for the pricing engine and the fuel plan's
 * live preview. Exact: prices in thousandths of a euro, percents in hundredths, integers throughout.
 * Shared by the browser and the server: no imports from either side.
 */
export type DecimalText = string | number | null | undefined;

export interface FuelPlan {
  fuel_base_price: DecimalText;
  fuel_step: DecimalText;
  fuel_step_percent: DecimalText;
  fuel_max_percent: DecimalText;
}

export interface DieselPrice {
  month: string;
  price: DecimalText;
}

const blank = (v: DecimalText) => v === null || v === undefined || String(v).trim() === '';

/** Decimal text (or a number) as an integer count of 10^-scale units; null when blank or not a plain decimal with at most `scale` decimals. */
export function scaled(v: DecimalText, scale: number): number | null {
  if (blank(v)) return null;
  const m = /^(\d+)(?:[.,](\d*))?$/.exec(String(v).trim());
  if (!m || (m[2] ?? '').length > scale) return null;
  return Number(m[1]) * 10 ** scale + Number((m[2] ?? '').padEnd(scale, '0') || '0');
}

/** Hundredths as the shortest decimal text: 200 → "2", 250 → "2.5", 125 → "1.25". */
export function hundredthsText(h: number): string {
  const whole = Math.floor(h / 100);
  const frac = String(h % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** A plan prices fuel when its base and step are set (and the step is above 0). */
export function hasFuelPlan(plan: FuelPlan): boolean {
  const step = scaled(plan.fuel_step, 3);
  return scaled(plan.fuel_base_price, 3) !== null && step !== null && step > 0;
}

/**
 * Whole steps = floor((price − base) / step), never below 0; percent = steps × step percent, at most the
 * cap. Null when the plan prices no fuel or the price is unreadable. `percent` is exact decimal text.
 */
export function fuelPercent(plan: FuelPlan, price: DecimalText): { steps: number; percent: string } | null {
  if (!hasFuelPlan(plan)) return null;
  const base = scaled(plan.fuel_base_price, 3)!;
  const step = scaled(plan.fuel_step, 3)!;
  const p = scaled(price, 3);
  if (p === null) return null;
  const steps = p > base ? Math.floor((p - base) / step) : 0;
  let h = steps * (scaled(plan.fuel_step_percent, 2) ?? 0);
  const cap = scaled(plan.fuel_max_percent, 2);
  if (cap !== null) h = Math.min(h, cap);
  return { steps, percent: hundredthsText(h) };
}

/** The reference row for a month (`YYYY-MM`): that month's, else the latest earlier one; none: null. */
export function dieselRowFor<T extends DieselPrice>(rows: readonly T[], month: string): T | null {
  let best: T | null = null;
  for (const r of rows) if (r.month <= month && (!best || r.month > best.month)) best = r;
  return best;
}

/** The month (`YYYY-MM`) of an ISO date (`YYYY-MM-DD`, already a Rome day). */
export const monthOf = (isoDate: string) => isoDate.slice(0, 7);

/** This month as `YYYY-MM` in Europe/Rome (pricing.md §7: the quote date's month). */
export const romeMonth = (now = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit' }).format(now).slice(0, 7);
