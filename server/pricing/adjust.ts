/**
 * Sell price adjustments, admin fee, surcharges and the standard ratio (pricing.md §1, §3.1, §4).
 */
import { LINE } from './keys.js';
import { applyPercent, assertDecimal, centsToNumber, compareDecimal, isBlank, mulCents, percentOf, type Cents } from './money.js';
import type { BreakdownEntry, CallerKind, CarrierSettings, DecimalCell, EndUserSettings, ServiceClass, VolumeType } from './types.js';

/** A percentage that applies: 0 < p < 100 (exclusive). Empty or out-of-range values are ignored. */
function usablePercent(p: DecimalCell): string | null {
  if (isBlank(p)) return null;
  const text = String(p).trim();
  assertDecimal(text); // throws on garbage: a data error must not be priced silently
  return compareDecimal(text, 0) > 0 && compareDecimal(text, 100) < 0 ? text : null;
}

/** visitor_price_multiplier: empty (or not positive) means 1. */
function usableMultiplier(m: DecimalCell): string | null {
  if (isBlank(m)) return null;
  const text = String(m).trim();
  assertDecimal(text);
  return compareDecimal(text, 0) > 0 ? text : null;
}

export interface AdjustContext {
  caller: CallerKind;
  carrier: Pick<CarrierSettings, 'visitor_price_multiplier'>;
  endUser: Pick<EndUserSettings, 'increase_percent' | 'decrease_percent'> | null;
}

/**
 * The adjustments of the list price, in order, each rounded half-up to the cent:
 * 1. end user's increase_percent: × (1 + p/100); 2. end user's decrease_percent: × (1 − p/100);
 * 3. visitor quotes only: × the carrier's visitor_price_multiplier (empty means 1).
 * Returns the offer and one breakdown line per step applied (amount = what the step added).
 */
export function adjustSell(list: Cents, ctx: AdjustContext, cls: ServiceClass | null, withLines = true): { cents: Cents; lines: BreakdownEntry[] } {
  // without the lines: the public view (types.ts QuoteInput.view), which would drop them
  const lines: BreakdownEntry[] = [];
  let c = list;
  const inc = ctx.endUser ? usablePercent(ctx.endUser.increase_percent) : null;
  if (inc !== null) {
    const next = applyPercent(c, inc, 1);
    if (withLines) lines.push({ key: LINE.increase, params: { class: cls, percent: inc }, amount: centsToNumber(next - c) });
    c = next;
  }
  const dec = ctx.endUser ? usablePercent(ctx.endUser.decrease_percent) : null;
  if (dec !== null) {
    const next = applyPercent(c, dec, -1);
    if (withLines) lines.push({ key: LINE.decrease, params: { class: cls, percent: dec }, amount: centsToNumber(next - c) });
    c = next;
  }
  if (ctx.caller === 'visitor') {
    const m = usableMultiplier(ctx.carrier.visitor_price_multiplier);
    if (m !== null) {
      const next = mulCents(c, m);
      if (withLines)
        lines.push({
          key: LINE.visitorMultiplier,
          params: { class: cls, multiplier: m },
          amount: centsToNumber(next - c),
        });
      c = next;
    }
  }
  return { cents: c, lines };
}

/**
 * Admin fee: the end user's national_admin_fee / international_admin_fee when the quote has an end user
 * (an empty fee of the end user is 0: it does NOT fall back to the carrier's); without an end user the
 * carrier's. Empty means 0. Added once per quote, never adjusted.
 */
export function adminFee(
  zone: 'national' | 'international',
  endUser: Pick<EndUserSettings, 'national_admin_fee' | 'international_admin_fee'> | null,
  carrier: Pick<CarrierSettings, 'national_admin_fee' | 'international_admin_fee'>,
): { cents: Cents; source: 'enduser' | 'carrier' } {
  const company = endUser ?? carrier;
  const fee = zone === 'national' ? company.national_admin_fee : company.international_admin_fee;
  return { cents: fee ?? 0, source: endUser ? 'enduser' : 'carrier' };
}

export interface SurchargeResult {
  adr: Cents;
  taillift: Cents;
  lines: BreakdownEntry[];
}

/**
 * §4: with ADR the freight gains freight × adr_surcharge_percent / 100 (rounded, once); with tail lift the
 * carrier's taillift_fee is added once per shipment. Empty settings mean 0.
 */
export function surcharges(
  freight: Cents,
  flags: { adr: boolean; taillift: boolean },
  carrier: Pick<CarrierSettings, 'adr_surcharge_percent' | 'taillift_fee'>,
  params: { class: ServiceClass | null; side: 'sell' | 'buy' },
): SurchargeResult {
  const lines: BreakdownEntry[] = [];
  let adr = 0;
  let taillift = 0;
  if (flags.adr) {
    const pct = isBlank(carrier.adr_surcharge_percent) ? '0' : String(carrier.adr_surcharge_percent).trim();
    adr = percentOf(freight, pct);
    lines.push({ key: LINE.adr, params: { ...params, percent: pct }, amount: centsToNumber(adr) });
  }
  if (flags.taillift) {
    taillift = carrier.taillift_fee ?? 0;
    lines.push({ key: LINE.taillift, params: { ...params }, amount: centsToNumber(taillift) });
  }
  return { adr, taillift, lines };
}

export const DEFAULT_RATIO: Readonly<Record<VolumeType, number>> = { CBM: 250, LM: 1750 };

function ratioValue(v: DecimalCell): string | null {
  if (isBlank(v)) return null;
  // tolerate the form's spelling ("CBM300", "LM1750") as well as a plain number
  const m = /^(?:CBM|LM)?\s*(\d+(?:\.\d+)?)$/i.exec(String(v).trim());
  if (!m || compareDecimal(m[1]!, 0) <= 0) return null;
  return m[1]!;
}

/** A company's combo ratio for the volume type, when usable. */
function comboRatio(c: Pick<CarrierSettings, 'combo_cbm_ratio' | 'combo_lm_ratio'>, volumeType: VolumeType): string | null {
  return ratioValue(volumeType === 'CBM' ? c.combo_cbm_ratio : c.combo_lm_ratio);
}

/**
 * The ratio r of a standard quote (§3.1): Carrier and Admin choose it in the form (validation requires it;
 * if absent anyway the company chain below is used); an Enduser gets its company's combo ratio, else the
 * carrier's; visitors the carrier's. Missing everywhere: 250 (CBM) / 1750 (LM).
 */
export function resolveRatio(
  caller: CallerKind,
  volumeType: VolumeType,
  formRatio: DecimalCell,
  endUser: Pick<EndUserSettings, 'combo_cbm_ratio' | 'combo_lm_ratio'> | null,
  carrier: Pick<CarrierSettings, 'combo_cbm_ratio' | 'combo_lm_ratio'>,
): { ratio: string; source: 'form' | 'enduser' | 'carrier' | 'default' } {
  if (caller === 'carrier' || caller === 'admin') {
    const f = ratioValue(formRatio);
    if (f !== null) return { ratio: f, source: 'form' };
  }
  if (caller === 'enduser' && endUser) {
    const e = comboRatio(endUser, volumeType);
    if (e !== null) return { ratio: e, source: 'enduser' };
  }
  const c = comboRatio(carrier, volumeType);
  if (c !== null) return { ratio: c, source: 'carrier' };
  return { ratio: String(DEFAULT_RATIO[volumeType]), source: 'default' };
}
