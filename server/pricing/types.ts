/**
 * Input and output types of the pricing engine (pricing.md). Column names are the stored snake_case
 * names of the tariff tables. ALL money inputs are integer cents (the importer / loader converts with
 * `toCents`); percentages, multipliers and ratios are exact decimals given as text (or numbers).
 * Every row passed in already belongs to the quoting carrier: the caller filters by company_id.
 */
import type { Cents, DecimalInput } from './money.js';

export type Band = 'p150' | 'p300' | 'p550' | 'ps550' | 'p1000';
export type ServiceClass = 'SILVER' | 'GOLD';
/** 1 = SILVER, 2 = GOLD */
export type TypeId = 1 | 2;
export type Flow = 'IN' | 'OUT';
export type RateType = 'STD' | 'EXP';
export type SheetZone = 'NAT' | 'INT';
export type CallerKind = 'visitor' | 'enduser' | 'carrier' | 'admin';
export type VolumeType = 'CBM' | 'LM';
/** Decimal text or number; null / '' mean "empty". */
export type DecimalCell = DecimalInput | null | undefined;

// ---- tariff rows -------------------------------------------------------------------------------

export interface ExpressRateRow {
  province: string;
  type_id: TypeId;
  p150: Cents | null;
  p300: Cents | null;
  p550: Cents | null;
  ps550: Cents | null;
  p1000: Cents | null;
  leadtime: number | null;
  /** no pricing effect (pricing.md §1 "Tariff files") */
  rate_code?: string | null;
  carrier_zone?: string | null;
  country?: string | null;
  department?: string | null;
  hub?: string | null;
}

export interface StandardRateRow {
  rate_code: string | null;
  /** ISO alpha-2 */
  country: string;
  zone_code: string;
  /** kg, bracket is weight_from < w <= weight_to */
  weight_from: number | string;
  weight_to: number | string;
  price: Cents;
  /** Q = per 100 kg, S = per shipment */
  unit: 'Q' | 'S';
  minimum: Cents | null;
  leadtime: number | null;
}

export interface HubCode {
  code: string;
  hub: string;
}

export interface HubCost {
  code: string;
  silver: Cents | null;
  gold: Cents | null;
}

export interface IslandZone {
  island: string;
  special_zone?: string | null;
  quintal_cost: Cents | null;
  /** exact decimal, empty means 1 */
  multiplier: DecimalCell;
  p150: Cents | null;
  p300: Cents | null;
  p550: Cents | null;
  ps550: Cents | null;
  p1000: Cents | null;
  type_id: TypeId;
}

/** Reference island list: which municipality (city + province sigla) lies on which island. */
export interface IslandPlace {
  island: string;
  city: string;
  province: string;
}

export interface ExpressSpecialZone {
  province: string | null;
  city: string | null;
  postal_code: string | null;
}

export interface StandardSpecialZone {
  province: string | null;
  code: string;
  city: string | null;
  postal_code: string | null;
}

export interface NoPassage {
  postal_code: string | null;
  city: string | null;
  cost: Cents | null;
  cost2: Cents | null;
  province: string | null;
  flow: Flow | string;
  special_zone?: string | null;
  code?: string | null;
  rate_code: string | null;
  /** no pricing effect */
  company_iso_2?: string | null;
  col_11?: string | null;
}

/** A postal-code surcharge row (pricing.md §8): stored as the importer writes it (fixed in cents). */
export interface PostalSurcharge {
  /** ISO alpha-2; empty = IT */
  country: string | null;
  /** normalised: an exact code or a prefix ending in `*` */
  postal_code: string;
  kind: 'ztl' | 'remote' | 'other' | string;
  /** IN = the origin, OUT = the destination, empty = either end */
  flow: Flow | string | null;
  fixed: Cents | null;
  percent: DecimalCell;
}

/** The diesel reference row the server chose for the quote date's month (pricing.md §7). */
export interface DieselRow {
  month: string;
  price: string | number;
}

/** `data.fuel` (pricing.md §7): the month and price of the reference row and the percent they give. */
export interface FuelApplied {
  month: string;
  price: string;
  percent: string;
}

// ---- companies, categories, sheets -------------------------------------------------------------

export interface CarrierSettings {
  id: number;
  adr_surcharge_percent: DecimalCell;
  taillift_fee: Cents | null;
  national_admin_fee: Cents | null;
  international_admin_fee: Cents | null;
  visitor_price_multiplier: DecimalCell;
  combo_cbm_ratio: DecimalCell;
  combo_lm_ratio: DecimalCell;
  /** fuel plan (pricing.md §7, model/fuel.ts): exact decimal text; empty base or step = no fuel surcharge */
  fuel_base_price?: string | number | null;
  fuel_step?: string | number | null;
  fuel_step_percent?: string | number | null;
  fuel_max_percent?: string | number | null;
}

export interface EndUserSettings {
  id: number;
  exp_category_id: number | null;
  std_category_id: number | null;
  increase_percent: DecimalCell;
  decrease_percent: DecimalCell;
  national_admin_fee: Cents | null;
  international_admin_fee: Cents | null;
  combo_cbm_ratio: DecimalCell;
  combo_lm_ratio: DecimalCell;
}

export interface Category {
  id: number;
  code: string;
  rate_type: RateType;
  zone: SheetZone;
  company_id: number;
}

export interface RateSheet {
  id: number;
  category_id: number;
  area: 'Customer' | 'Supplier';
  /** YYYY-MM-DD, inclusive (a longer ISO text is cut to its first 10 characters) */
  validate_from: string;
  validate_to: string;
  is_standard: 0 | 1 | boolean;
  /** only used to name the sheet in the breakdown */
  code?: string | null;
}

export type SellSource = 'enduser_category' | 'carrier_standard';

export interface SheetChoice {
  sell: RateSheet | null;
  sellSource: SellSource;
  /** express only: the carrier's applicable Supplier-area EXP/NAT sheet */
  buy: RateSheet | null;
}

// ---- the normalized request ---------------------------------------------------------------------

export interface Place {
  /** ISO alpha-2, upper case */
  country: string;
  /** normalized: upper case, no spaces or hyphens */
  postal_code: string;
  city: string;
  /** Italian province sigla */
  province: string;
}

/**
 * One pallet row. Values are validated by the caller: zero or negative values are a 422, never priced.
 * Decimal text is accepted for exactness.
 */
export interface Pallet {
  weight: number | string;
  width: number | string;
  length: number | string;
  height: number | string;
}

export interface StandardGoods {
  /** counts packages, no effect on price */
  units: number;
  /** total kg, > 0 */
  weight: number | string;
  /** total m³ (CBM) or loading metres (LM), >= 0 */
  volume: number | string;
  volumeType: VolumeType;
  /** kg per m³ / per LM chosen in the form (Carrier and Admin only); see resolveRatio */
  ratio?: number | string | null;
}

export interface QuoteRequest {
  zone: 'national' | 'international';
  service: 'palletExpress' | 'standard';
  /** pallet express only, default OUT */
  flow: Flow;
  island?: string | null;
  adr: boolean;
  taillift: boolean;
  origin: Place;
  destination: Place;
  pallets: Pallet[];
  standard?: StandardGoods | null;
  caller: CallerKind;
}

export interface QuoteInput {
  request: QuoteRequest;
  /** the quote date D, YYYY-MM-DD (Europe/Rome) */
  date: string;
  carrier: CarrierSettings;
  endUser: EndUserSettings | null;
  /** result of selectSheets for the quote's rate type and zone */
  sheets: SheetChoice;
  /** rows of sheets.sell (express quotes) */
  expressSellRows?: readonly ExpressRateRow[];
  /** rows of sheets.buy (express quotes) */
  expressBuyRows?: readonly ExpressRateRow[];
  /** rows of sheets.sell (standard quotes) */
  standardSellRows?: readonly StandardRateRow[];
  hubCodes?: readonly HubCode[];
  hubCosts?: readonly HubCost[];
  islandZones?: readonly IslandZone[];
  islandList?: readonly IslandPlace[];
  expressSpecialZones?: readonly ExpressSpecialZone[];
  standardSpecialZones?: readonly StandardSpecialZone[];
  noPassage?: readonly NoPassage[];
  /** the diesel reference row for the quote date's month (that month's, else the latest earlier), or none */
  diesel?: DieselRow | null;
  /** the carrier's postal-code surcharge rows (at least those that can match one of the two ends) */
  postalSurcharges?: readonly PostalSurcharge[];
  /**
   * 'public' (issue 37): the quote for an end user or a visitor answered at once: the engine leaves out
   * what `visibleTo` would take away anyway (the buy side is not priced; only PUBLIC_LINES are written),
   * so `visibleTo(kind, public)` equals `visibleTo(kind, full)` (pricing/publicView.test.ts checks it).
   * Omitted or 'full': everything, as transport requests store it (server.md §5).
   */
  view?: 'full' | 'public';
}

// ---- output -------------------------------------------------------------------------------------

export type Params = Record<string, string | number | boolean | null>;

export interface BreakdownEntry {
  key: string;
  params: Params;
  /** euros rounded to the cent, null for informational lines */
  amount: number | null;
}

export interface PalletData {
  row: number;
  weight: number | string;
  width: number | string;
  length: number | string;
  height: number | string;
  measure: string;
  type: Band;
}

export interface PricesList {
  total_silver_buy: number | null;
  total_gold_buy: number | null;
  max_leadtime_buy_silver: number | null;
  max_leadtime_buy_gold: number | null;
  total_silver_sell: number | null;
  total_gold_sell: number | null;
  admin_fee: number;
  x_total_silver_sell: number;
  x_total_gold_sell: number;
  max_leadtime_sell_silver: number | null;
  max_leadtime_sell_gold: number | null;
}

export interface CostoComplete {
  final_cost_lane_one: number | null;
  final_cost_lane_two: number | null;
  shipment_cost: number;
  admin_fee: number;
  totla: number;
  lead_time: number | null;
}

export interface Units {
  standardunits: number;
  standardweight: number | string;
  standardvolume: number | string;
  standardvolumeType: VolumeType;
  ratio: number;
  chargeable_weight: number;
}

export interface QuoteData {
  palletData?: PalletData[];
  prices_list?: PricesList;
  costo_complete?: CostoComplete;
  units?: Units;
  /** the fuel surcharge applied (pricing.md §7), null without one */
  fuel: FuelApplied | null;
  breakdown: BreakdownEntry[];
}

export interface Refusal {
  ok: false;
  key: string;
  params: Params;
}

export type QuoteResult = { ok: true; data: QuoteData } | Refusal;
