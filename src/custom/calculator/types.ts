/** The calculator's form, the cost request it sends and the answer it shows (calculator document §3, pricing.md §5). */
import type { QuoteAnswer, QuoteRequest } from '../../../model/quote';

export type CalcKind = 'admin' | 'carrier' | 'enduser' | 'visitor';
export type Zone = 'national' | 'international';
export type Service = 'palletExpress' | 'standard';

export interface PlaceForm {
  country: string;
  postalCode: string;
  locality: string;
  province: string;
}
export interface PalletForm {
  weight: string;
  width: string;
  length: string;
  height: string;
}

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

/** The body of POST /visitor/costRequest and its answer: declared once in model/quote.ts (type-only import, nothing bundled). */
/** The ratio stays text here: the form's select holds it as text, and the server answers 422 to one it does not know. */
export type CostRequest = Omit<QuoteRequest, 'calculationRatio'> & { calculationRatio?: string };
export type CostAnswer = QuoteAnswer;
export type QuoteData = Extract<QuoteAnswer, { status: true }>['data'];
export type PricesList = NonNullable<QuoteData['prices_list']>;
export type CostoComplete = NonNullable<QuoteData['costo_complete']>;
export type Units = NonNullable<QuoteData['units']>;
export type PalletData = NonNullable<QuoteData['palletData']>[number];
export type BreakdownLine = QuoteData['breakdown'][number];

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
