/** The calculator's form, the cost request it sends and the answer it shows (calculator document §3, pricing.md §5). */
export type CalcKind = 'admin' | 'carrier' | 'enduser' | 'visitor';
export type Zone = 'national' | 'international';
export type Service = 'palletExpress' | 'standard';

export interface PlaceForm { country: string; postalCode: string; locality: string; province: string }
export interface PalletForm { weight: string; width: string; length: string; height: string }

export interface CalcForm {
  zone: Zone | '';
  service: Service | '';
  flow: 'OUT' | 'IN';
  island: string;
  adr: boolean;
  taillift: boolean;
  origin: PlaceForm;
  destination: PlaceForm;
  pallets: PalletForm[];
  units: string;
  weight: string;
  volume: string;
  volumeType: 'CBM' | 'LM' | '';
  ratio: string;
  companyId: number | '';
  endUserId: number | '';
}

/** The body of POST /visitor/costRequest. */
export interface CostRequest {
  zone: Zone;
  service: Service;
  flow?: 'IN' | 'OUT';
  island?: string;
  adr: 0 | 1;
  taillift: 0 | 1;
  originCountry: string; originPostalCode: string; originLocality?: string; originProvince?: string;
  destinationCountry: string; destinationPostalCode: string; destinationLocality?: string; destinationProvince?: string;
  standardunits?: number; standardweight?: number; standardvolume?: number; standardvolumeType?: 'CBM' | 'LM';
  calculationRatio?: string;
  palletWeight?: number[]; palletWidth?: number[]; palletLength?: number[]; palletHeight?: number[];
  company_id?: number;
  enduser_id?: number;
}

export interface PricesList {
  total_silver_buy: number | null; total_gold_buy: number | null;
  max_leadtime_buy_silver: number | null; max_leadtime_buy_gold: number | null;
  total_silver_sell: number | null; total_gold_sell: number | null;
  admin_fee: number;
  x_total_silver_sell: number; x_total_gold_sell: number;
  max_leadtime_sell_silver: number | null; max_leadtime_sell_gold: number | null;
}
export interface CostoComplete {
  final_cost_lane_one: number | null; final_cost_lane_two: number | null;
  shipment_cost: number; admin_fee: number; totla: number; lead_time: number | null;
}
export interface Units {
  standardunits: number; standardweight: number | string; standardvolume: number | string;
  standardvolumeType: 'CBM' | 'LM'; ratio: number; chargeable_weight: number;
}
export interface PalletData { row: number; weight: number | string; width: number | string; length: number | string; height: number | string; measure: string; type: string }
export interface BreakdownLine { key: string; label: string; amount: number | null }

export interface QuoteData {
  palletData?: PalletData[];
  prices_list?: PricesList;
  costo_complete?: CostoComplete;
  units?: Units;
  breakdown: BreakdownLine[];
}
export type CostAnswer = { status: true; message: string; data: QuoteData } | { status: false; message: string };

/**
 * What the calculator hands to /transport-requests (calculator document §2): the cost request, the
 * price list and pallet data (pallet express), or the standard price list and units (standard).
 * Carried as react-router navigation state with the query shipmentType (and shipmentClass).
 */
export interface QuoteHandOver {
  costRequest: CostRequest;
  shipmentType: Service;
  shipmentClass?: 'SILVER' | 'GOLD';
  priceList?: PricesList;
  palletData?: PalletData[];
  standardPriceList?: CostoComplete;
  units?: Units;
}
