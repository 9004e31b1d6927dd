/** Public API of the pure pricing engine (see quote.ts for the intended call sequence). */
export * from './types.js';
export { REFUSAL, LINE, PUBLIC_LINES } from './keys.js';
export {
  toCents,
  toCentsOrNull,
  centsToNumber,
  centsToNumberOrNull,
  mulCents,
  percentOf,
  applyPercent,
  roundHalfUp,
  ceilKg,
  ceilQuintals,
  parseDecimal,
  compareDecimal,
  isBlank,
} from './money.js';
export type { Cents, Dec, DecimalInput } from './money.js';
export { selectSheets, pickVersion, applies, generateSheetCode } from './sheets.js';
export type { SelectSheetsInput } from './sheets.js';
export {
  normalizePostalCode,
  normalizeName,
  matchLocationRows,
  indexLocations,
  matchLocation,
  selectBand,
  palletMeasure,
  resolveZoneCode,
  BANDS,
} from './places.js';
export { adjustSell, adminFee, surcharges, resolveRatio, DEFAULT_RATIO } from './adjust.js';
export { priceExpress, findHub, resolveIsland, palletPrice } from './express.js';
export { priceStandard, laneCost, findBracket, noPassageCharges, ratedPlace } from './standard.js';
export { priceQuote, visibleTo } from './quote.js';
