import { translate, type Lang } from '../i18n/index.js';
import { LINE, REFUSAL } from '../pricing/keys.js';
import type { BreakdownEntry, Params } from '../pricing/types.js';

/**
 * Turns the engine's message keys into the caller's language (pricing.md §5): refusals into a message,
 * breakdown lines into `{key, label, amount}`. Parameters that are codes (class, side, source, lane,
 * unit, flow...) become words; numbers and euro amounts are written the way the language writes them.
 */
const LOCALE: Record<Lang, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };
const numberFormats = new Map<string, Intl.NumberFormat>();
function fmt(lang: Lang, kind: 'number' | 'money'): Intl.NumberFormat {
  const k = `${lang}|${kind}`;
  let f = numberFormats.get(k);
  if (!f) {
    // grouping always on: Italian writes 1.200 (Intl leaves four digits ungrouped by default)
    const grouping = { useGrouping: 'always' } as unknown as Intl.NumberFormatOptions;
    f =
      kind === 'money'
        ? new Intl.NumberFormat(LOCALE[lang], { ...grouping, style: 'currency', currency: 'EUR' })
        : new Intl.NumberFormat(LOCALE[lang], { ...grouping, maximumFractionDigits: 4 });
    numberFormats.set(k, f);
  }
  return f;
}

const num = (lang: Lang, v: unknown) =>
  v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? String(v ?? '') : fmt(lang, 'number').format(Number(v));
const money = (lang: Lang, v: unknown) => fmt(lang, 'money').format(Number(v));
const days = (lang: Lang, v: unknown) =>
  v === null || v === undefined
    ? translate(lang, 'pricing.notAvailable')
    : translate(lang, Number(v) === 1 ? 'pricing.days.one' : 'pricing.days.other', { n: v });
const dateText = (lang: Lang, ymd: unknown) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(ymd));
  return m ? new Intl.DateTimeFormat(LOCALE[lang], { timeZone: 'UTC' }).format(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]))) : String(ymd);
};

/** A month `YYYY-MM` in words: "novembre 2026", "November 2026". */
export const monthText = (lang: Lang, ym: unknown) => {
  const m = /^(\d{4})-(\d{2})/.exec(String(ym));
  return m
    ? new Intl.DateTimeFormat(LOCALE[lang], { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(new Date(Date.UTC(+m[1], +m[2] - 1, 1)))
    : String(ym ?? '');
};

/** The parameters of a key, with the derived words its message uses. */
function display(lang: Lang, key: string, p: Params): Record<string, unknown> {
  const t = (k: string) => translate(lang, k);
  const out: Record<string, unknown> = { ...p };
  out.cls = p.class ? ` ${p.class}` : '';
  out.sideText = p.side ? ` (${t(`pricing.side.${p.side}`)})` : '';
  for (const k of ['weight', 'value', 'percent', 'multiplier', 'ratio', 'lane_one_kg', 'lane_two_kg', 'chargeable_kg', 'max']) {
    if (typeof p[k] === 'number' || (typeof p[k] === 'string' && /^-?\d+(\.\d+)?$/.test(p[k] as string))) out[k] = num(lang, p[k]);
  }
  if ('days' in p) out.daysText = days(lang, p.days);
  if (p.lane !== undefined) out.laneText = t(`pricing.lane.${p.lane}`);
  switch (key) {
    case LINE.sellSheet:
      out.code = p.code ?? `#${p.sheetId}`;
      out.sourceText = t(`pricing.src.sellSheet.${p.source}`);
      break;
    case LINE.buySheet:
      out.code = p.code ?? `#${p.sheetId}`;
      break;
    case LINE.island:
      out.sourceText = t(`pricing.src.island.${p.source}`);
      break;
    case LINE.ratio:
      out.sourceText = t(`pricing.src.ratio.${p.source}`);
      break;
    case LINE.zoneCode:
      out.sourceText = t(`pricing.src.zoneCode.${p.source}`);
      break;
    case LINE.adminFee:
      out.scopeText = t(`pricing.scope.${p.scope}`);
      break;
    case LINE.hub:
      out.matchedText = p.matchedBy ? t(`pricing.matched.${p.matchedBy}`) : '';
      break;
    case LINE.hubCost:
      out.hubText = p.hub ?? '—';
      break;
    case LINE.lane:
      out.money = money(lang, p.price);
      out.unitText = t(`pricing.unit.${p.unit}`);
      out.minText = p.minimumApplied ? t('pricing.minimumApplied') : '';
      break;
    case LINE.noPassage:
      out.flowText = t(`pricing.flow.${p.flow}`);
      out.placeText = [p.postal_code, p.city, p.province ? `(${p.province})` : null].filter(Boolean).join(' ');
      break;
    case LINE.fuel:
    case LINE.fuelAmount:
    case LINE.noDieselPrice:
      out.monthText = monthText(lang, p.month);
      break;
    case LINE.postalInfo:
    case LINE.postal:
      out.kindText = t(`pricing.postalKind.${p.kind}`);
      out.endText = t(`pricing.end.${p.end}`);
      break;
    case REFUSAL.noSellSheet:
      out.serviceText = t(`pricing.service.${p.rateType}`);
      out.zoneText = t(`pricing.zone.${p.zone}`);
      out.dateText = dateText(lang, p.date);
      break;
  }
  return out;
}

/** The message key of a line, with its variant when a value is missing. */
function variant(e: BreakdownEntry): string {
  if (e.key === LINE.ratio) return `${e.key}.${e.params.volumeType === 'LM' ? 'LM' : 'CBM'}`;
  if (e.key === LINE.hub && !e.params.hub) return `${e.key}.none`;
  if (e.key === LINE.buyTotal && e.amount === null) return `${e.key}.none`;
  return e.key;
}

export interface BreakdownLine {
  key: string;
  label: string;
  amount: number | null;
}

/**
 * Labels repeat from quote to quote (the same sheet, bands, classes), so each process keeps the last
 * few thousand it wrote: a label depends only on the language, the key, its parameters and whether
 * the amount is known. Prepared once per language and such parameters (issue 37): a tree of maps, one level
 * per parameter value in the engine's fixed order (one key has always the same parameters), so that a label
 * already written is found without building a key string for it (a quote's every line used to build one).
 */
interface LabelNode {
  text?: string;
  next?: Map<unknown, LabelNode>;
}
const labels = new Map<string, LabelNode>();
let labelCount = 0;
const MAX_LABELS = 5000;

function label(lang: Lang, e: BreakdownEntry): string {
  let byKey = labels.get(lang);
  if (!byKey) labels.set(lang, (byKey = {}));
  // the first level: the key with whether the amount is known
  let node = step(step(byKey, e.key), e.amount === null);
  for (const k in e.params) node = step(node, e.params[k]);
  if (node.text === undefined) {
    if (labelCount >= MAX_LABELS) {
      labels.clear();
      labelCount = 0;
    }
    node.text = translate(lang, variant(e), display(lang, e.key, e.params));
    labelCount++;
  }
  return node.text;
}

/** The child of a node for a value (made when missing). */
function step(node: LabelNode, value: unknown): LabelNode {
  let next = node.next;
  if (!next) node.next = next = new Map();
  let child = next.get(value);
  if (!child) next.set(value, (child = {}));
  return child;
}

export function translateLines(lang: Lang, lines: BreakdownEntry[]): BreakdownLine[] {
  const out: BreakdownLine[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const e = lines[i]!;
    out[i] = { key: e.key, label: label(lang, e), amount: e.amount };
  }
  return out;
}

export function refusalMessage(lang: Lang, key: string, params: Params): string {
  return translate(lang, key, display(lang, key, params));
}
