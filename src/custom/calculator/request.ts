import { readDecimal } from '../../components/forms/decimal';
import { ISLAND_NAMES } from '../../../model/tariffPlaces';
import type { CalcForm, CalcKind, CostRequest, PlaceForm } from './types';

export const RATIOS = { CBM: ['CBM250', 'CBM300', 'CBM350', 'CBM400', 'CBM450', 'CBM500'], LM: ['LM1500', 'LM1750'] } as const;
/** The island list of server.md §9 (model/tariffPlaces.ts): a minor island takes precedence over its region. */
export const ISLANDS: string[] = [...ISLAND_NAMES];

const emptyPlace = (country = 'IT'): PlaceForm => ({ country, postalCode: '', locality: '', province: '' });
export const emptyPallet = () => ({ weight: '', width: '', length: '', height: '' });

export function initialForm(): CalcForm {
  return {
    zone: '',
    service: '',
    flow: 'OUT',
    island: '',
    adr: false,
    taillift: false,
    origin: emptyPlace(),
    destination: emptyPlace(),
    pallets: [emptyPallet()],
    units: '',
    weight: '',
    volume: '',
    volumeType: '',
    ratio: '',
    companyId: '',
    endUserId: '',
  };
}

/** Locality and province are asked when the zone is national or the place is in Italy (calculator document §5). */
export const asksLocality = (form: Pick<CalcForm, 'zone'>, place: PlaceForm) => form.zone === 'national' || place.country.toUpperCase() === 'IT';

/**
 * A typed weight or measure in the user's language, through the portal's one reader of typed decimals in its
 * quantity reading (src/components/forms/decimal.ts): "12,5" and "12.5" are 12.5, "1.500" in Italian is
 * 1500 kg as on the booking form (issue 35); NaN when it reads as no number. The request carries dots.
 */
export const toNumber = (v: string, locale = 'it') => {
  const n = readDecimal(v, locale, { quantity: true });
  return typeof n === 'number' ? n : NaN;
};
const isNumberText = (v: string, locale: string) => !/^\s*[+-]/.test(v) && Number.isFinite(toNumber(v, locale));

/** The calculator document §5 on the client: every missing or impossible value, keyed as the server keys its field errors. */
export function validate(form: CalcForm, kind: CalcKind, locale = 'it'): Record<string, string> {
  const e: Record<string, string> = {};
  const need = (key: string, v: string | number | '') => {
    if (v === '' || (typeof v === 'string' && !v.trim())) e[key] = 'calculator.required';
  };
  const positive = (key: string, v: string) => {
    if (!v.trim()) e[key] = 'calculator.required';
    else if (!isNumberText(v, locale) || toNumber(v, locale) <= 0) e[key] = 'calculator.positive';
  };
  need('zone', form.zone);
  need('service', form.service);
  for (const end of ['origin', 'destination'] as const) {
    const p = form[end];
    need(`${end}Country`, p.country);
    need(`${end}PostalCode`, p.postalCode);
    if (asksLocality(form, p)) {
      need(`${end}Locality`, p.locality);
      if (p.country.toUpperCase() === 'IT') need(`${end}Province`, p.province);
    }
  }
  if (kind === 'admin') need('company_id', form.companyId);
  if (form.service === 'palletExpress') {
    form.pallets.forEach((p, i) => {
      positive(`palletWeight.${i}`, p.weight);
      positive(`palletWidth.${i}`, p.width);
      positive(`palletLength.${i}`, p.length);
      positive(`palletHeight.${i}`, p.height);
    });
  } else if (form.service === 'standard') {
    if (!form.units.trim()) e.standardunits = 'calculator.required';
    else if (!/^\d+$/.test(form.units.trim()) || Number(form.units) < 1) e.standardunits = 'calculator.integer';
    positive('standardweight', form.weight);
    if (!form.volume.trim()) e.standardvolume = 'calculator.required';
    else if (!isNumberText(form.volume, locale)) e.standardvolume = 'calculator.not_negative';
    need('standardvolumeType', form.volumeType);
    // The ratio is chosen by carriers and admins; end users and visitors get their companies' (pricing.md §3.1).
    if ((kind === 'carrier' || kind === 'admin') && form.volumeType) need('calculationRatio', form.ratio);
  }
  return e;
}

function place(form: CalcForm, end: 'origin' | 'destination') {
  const p = form[end];
  const prefix = end;
  const out: Record<string, string> = { [`${prefix}Country`]: p.country.toUpperCase(), [`${prefix}PostalCode`]: p.postalCode.trim() };
  if (asksLocality(form, p)) {
    out[`${prefix}Locality`] = p.locality.trim();
    if (p.country.toUpperCase() === 'IT') out[`${prefix}Province`] = p.province.trim().toUpperCase();
  }
  return out;
}

/** The cost request of a valid form (validate() first). */
export function toCostRequest(form: CalcForm, kind: CalcKind, locale = 'it'): CostRequest {
  const body: CostRequest = {
    zone: form.zone as CostRequest['zone'],
    service: form.service as CostRequest['service'],
    adr: form.adr ? 1 : 0,
    taillift: form.taillift ? 1 : 0,
    ...(place(form, 'origin') as Pick<CostRequest, 'originCountry' | 'originPostalCode'>),
    ...(place(form, 'destination') as Pick<CostRequest, 'destinationCountry' | 'destinationPostalCode'>),
  };
  if (form.service === 'palletExpress') {
    body.flow = form.flow;
    if (form.island) body.island = form.island;
    body.palletWeight = form.pallets.map((p) => toNumber(p.weight, locale));
    body.palletWidth = form.pallets.map((p) => toNumber(p.width, locale));
    body.palletLength = form.pallets.map((p) => toNumber(p.length, locale));
    body.palletHeight = form.pallets.map((p) => toNumber(p.height, locale));
  } else {
    body.standardunits = Number(form.units);
    body.standardweight = toNumber(form.weight, locale);
    body.standardvolume = toNumber(form.volume, locale);
    body.standardvolumeType = form.volumeType as 'CBM' | 'LM';
    if ((kind === 'carrier' || kind === 'admin') && form.ratio) body.calculationRatio = form.ratio;
  }
  if (kind === 'admin' && form.companyId) body.company_id = Number(form.companyId);
  if ((kind === 'admin' || kind === 'carrier') && form.endUserId) body.enduser_id = Number(form.endUserId);
  return body;
}

/** Field errors of a 422 answer, first message per field. */
export function serverFieldErrors(errors: Record<string, string[]> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors ?? {})) if (v?.length) out[k] = v[0];
  return out;
}

const PALLET_KEYS = { palletWeight: 'weight', palletWidth: 'width', palletLength: 'length', palletHeight: 'height' } as const;
const FORM_KEYS: Record<string, keyof CalcForm> = {
  zone: 'zone',
  service: 'service',
  flow: 'flow',
  island: 'island',
  company_id: 'companyId',
  enduser_id: 'endUserId',
  standardunits: 'units',
  standardweight: 'weight',
  standardvolume: 'volume',
  standardvolumeType: 'volumeType',
  calculationRatio: 'ratio',
};

/** The form's value behind a field-error key ("originLocality", "palletWeight.1"...), to tell which field changed. */
export function fieldValue(form: CalcForm, key: string): unknown {
  const place = /^(origin|destination)(Country|PostalCode|Locality|Province)$/.exec(key);
  if (place) {
    const k = ({ Country: 'country', PostalCode: 'postalCode', Locality: 'locality', Province: 'province' } as const)[place[2] as 'Country'];
    return form[place[1] as 'origin'][k];
  }
  const pallet = /^(palletWeight|palletWidth|palletLength|palletHeight)(?:\.(\d+))?$/.exec(key);
  if (pallet) return pallet[2] === undefined ? form.pallets.length : form.pallets[Number(pallet[2])]?.[PALLET_KEYS[pallet[1] as 'palletWeight']];
  return FORM_KEYS[key] ? form[FORM_KEYS[key]] : undefined;
}
