import { readDecimal as readShared } from '../../components/forms/decimal';
import type { QuoteHandOver } from '../calculator/types';

/**
 * The create form's state, its checks (calculator document §5 "Create transport request") and the
 * multipart body it sends (§3 "Create-request payload", "Visitor save-request payload"). Pure: the
 * page keeps the state, these functions read it.
 */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** What the calculator hands over (calculator document §2): its own type, one source of truth. */
export type HandOver = QuoteHandOver;

/** The hand-over from navigation state, when it is complete enough to book from. */
export function readHandOver(state: unknown, query: URLSearchParams): HandOver | null {
  const h = state as HandOver | null;
  if (!h || typeof h !== 'object' || !h.costRequest) return null;
  const type = (query.get('shipmentType') as HandOver['shipmentType'] | null) ?? h.shipmentType;
  const cls = (query.get('shipmentClass') as HandOver['shipmentClass'] | null) ?? h.shipmentClass;
  if (type === 'palletExpress' && (!h.priceList || (cls !== 'SILVER' && cls !== 'GOLD'))) return null;
  if (type === 'standard' && !h.standardPriceList) return null;
  return { ...h, shipmentType: type, shipmentClass: type === 'palletExpress' ? cls : undefined };
}

/** Price (without the admin fee), admin fee, total and lead time of the chosen class or the standard quote. */
export function quotedFigures(h: HandOver) {
  if (h.shipmentType === 'palletExpress') {
    const k = h.shipmentClass === 'GOLD' ? 'gold' : ('silver' as const);
    const price = Number(h.priceList?.[`x_total_${k}_sell`] ?? 0);
    const fee = Number(h.priceList?.admin_fee ?? 0);
    return { price, fee, total: Math.round((price + fee) * 100) / 100, leadTime: h.priceList?.[`max_leadtime_sell_${k}`] ?? null };
  }
  const c = h.standardPriceList!;
  return { price: c.shipment_cost, fee: c.admin_fee, total: Math.round((c.shipment_cost + c.admin_fee) * 100) / 100, leadTime: c.lead_time };
}

export interface PlaceForm {
  date: string;
  timeFrom: string;
  timeTo: string;
  locationName: string;
  address: string;
  postalCode: string;
  city: string;
  province: string;
  country: string;
  notes: string;
  /** The address book (issue 34, addressBook.ts): the place picked for this section, if any… */
  bookId?: number | null;
  /** …the notes that pick wrote (a later pick replaces them, not the user's own)… */
  bookNotes?: string;
  /** …and whether to save the section's place in the address book once the booking is sent. */
  saveToBook?: boolean;
}
/** The section's own inputs (text), without the address book's bookkeeping. */
export type PlaceTextField = Exclude<keyof PlaceForm, 'bookId' | 'bookNotes' | 'saveToBook'>;
export interface ShipmentForm {
  shipperref: string;
  consigneeref: string;
  /** the consignee's e-mail for its status mails (docs/notifications.md), optional */
  consigneeemail: string;
  adr: boolean;
  taillift: boolean;
  units: string;
  weight: string;
  volume: string;
  volumeType: '' | 'CBM' | 'LM' | 'FTL';
  pickup: PlaceForm;
  delivery: PlaceForm;
}
export interface DocRow {
  key: number;
  type: number | '';
  file: File | null;
}
export interface Contact {
  company: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
}

export const emptyPlace = (over: Partial<PlaceForm> = {}): PlaceForm => ({
  date: '',
  timeFrom: '',
  timeTo: '',
  locationName: '',
  address: '',
  postalCode: '',
  city: '',
  province: '',
  country: 'IT',
  notes: '',
  ...over,
});

/** A new shipment; with a hand-over its places come from the quote (they override the address fields). */
export function newShipment(h: HandOver | null, pickupDefaults: Partial<PlaceForm> = {}): ShipmentForm {
  const q = h?.costRequest;
  return {
    shipperref: '',
    consigneeref: '',
    consigneeemail: '',
    adr: q?.adr === 1,
    taillift: q?.taillift === 1,
    units: '',
    weight: '',
    volume: '',
    volumeType: '',
    pickup: emptyPlace({
      ...pickupDefaults,
      ...(q ? { postalCode: q.originPostalCode, city: q.originLocality ?? '', province: q.originProvince ?? '', country: q.originCountry.toUpperCase() } : {}),
    }),
    delivery: emptyPlace(
      q
        ? {
            postalCode: q.destinationPostalCode,
            city: q.destinationLocality ?? '',
            province: q.destinationProvince ?? '',
            country: q.destinationCountry.toUpperCase(),
          }
        : {},
    ),
  };
}

export type Errors = Record<string, string>;

/**
 * A weight or volume typed in the user's language (issue 35): the portal's one reader of typed decimals
 * (src/components/forms/decimal.ts) in its quantity reading (`1.500` kg in Italian is 1500, `2.4` is 2,4,
 * `350,5` in English is 350.5), then the booking's bounds: not negative, at most 9 whole digits and 3
 * decimals; null when it is not such a number.
 */
export function readDecimal(text: string, locale = 'it'): number | null {
  if (/^[\s]*[+-]/.test(text)) return null;
  const n = readShared(text, locale, { quantity: true });
  if (typeof n !== 'number' || n < 0 || n >= 1e9) return null;
  // at most 3 decimals (compared in text, floats would say 0.1 * 1000 = 100.00000000000001)
  const frac = /\.(\d+)$/.exec(String(n));
  return frac && frac[1].length > 3 ? null : n;
}

/** The booking's steps on a phone, in order (the desktop shows the same parts as sections). */
export const STEPS = ['shipment', 'pickup', 'delivery', 'notes', 'review'] as const;
export type Step = (typeof STEPS)[number];

/** The step that holds a field path: `s0.pickup.date` → pickup, `s1.weight` → shipment, `doc0.type`, `contact.email` → notes. */
export function stepOfPath(path: string): Step {
  if (/^s\d+\.pickup\./.test(path)) return 'pickup';
  if (/^s\d+\.delivery\./.test(path)) return 'delivery';
  if (/^s\d+\./.test(path)) return 'shipment';
  return 'notes';
}

/** The first step with an error (null when there is none): the one a send with errors opens. */
export function firstWrongStep(errors: Errors): Step | null {
  const wrong = new Set(Object.keys(errors).map(stepOfPath));
  return STEPS.find((s) => wrong.has(s)) ?? null;
}

/** The errors of one step only (a phone's "Avanti" checks the step it leaves). */
export const errorsOfStep = (errors: Errors, step: Step): Errors => Object.fromEntries(Object.entries(errors).filter(([k]) => stepOfPath(k) === step));

/** Message keys by field path (`s0.pickup.date`, `doc1`, `contact.email`); empty when the form can be sent. */
export function validate(shipments: ShipmentForm[], docs: DocRow[], opts: { handOver: boolean; today: string; contact?: Contact; locale?: string }): Errors {
  const e: Errors = {};
  const req = (path: string, v: string) => {
    if (!v.trim()) e[path] = 'requests.required';
  };
  shipments.forEach((s, i) => {
    if (s.consigneeemail.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.consigneeemail.trim())) e[`s${i}.consigneeemail`] = 'requests.invalid_email';
    const p = `s${i}`;
    req(`${p}.shipperref`, s.shipperref);
    for (const end of ['pickup', 'delivery'] as const) {
      const a = s[end];
      for (const f of ['locationName', 'address', 'postalCode', 'country'] as const) req(`${p}.${end}.${f}`, a[f]);
      if (a.timeFrom && a.timeTo && a.timeTo <= a.timeFrom) e[`${p}.${end}.timeTo`] = 'requests.time_order';
      // A place saved in the address book needs its city (the address book requires it; the booking does not).
      if (a.saveToBook) req(`${p}.${end}.city`, a.city);
    }
    for (const f of ['date', 'timeFrom', 'timeTo'] as const) req(`${p}.pickup.${f}`, s.pickup[f]);
    if (s.pickup.date && s.pickup.date < opts.today) e[`${p}.pickup.date`] = 'requests.not_past';
    if (s.delivery.date && s.pickup.date && s.delivery.date < s.pickup.date) e[`${p}.delivery.date`] = 'requests.not_past';
    if (!opts.handOver) {
      if (!/^\d{1,6}$/.test(s.units.trim()) || Number(s.units) < 1) e[`${p}.units`] = s.units.trim() ? 'requests.invalid_number' : 'requests.required';
      const weight = readDecimal(s.weight, opts.locale);
      if (weight === null || weight <= 0) e[`${p}.weight`] = s.weight.trim() ? 'requests.invalid_number' : 'requests.required';
      if (readDecimal(s.volume, opts.locale) === null) e[`${p}.volume`] = s.volume.trim() ? 'requests.invalid_number' : 'requests.required';
      req(`${p}.volumeType`, s.volumeType);
    }
  });
  docs.forEach((d, i) => {
    if (d.file && !d.type) e[`doc${i}.type`] = 'requests.required';
    if (d.file && d.file.size > MAX_FILE_BYTES) e[`doc${i}.file`] = 'requests.max_file';
  });
  if (opts.contact) {
    for (const f of ['company', 'firstname', 'lastname', 'email', 'phone'] as const) req(`contact.${f}`, opts.contact[f]);
    if (opts.contact.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(opts.contact.email.trim())) e['contact.email'] = 'requests.invalid_email';
  }
  return e;
}

/** The multipart body: per-shipment fields as `name[]`, the quote's fields, the documents with their types. */
export function toFormData(shipments: ShipmentForm[], docs: DocRow[], notes: string, h: HandOver | null, contact?: Contact, locale = 'it'): FormData {
  const f = new FormData();
  const list = (name: string, pick: (s: ShipmentForm) => string) => shipments.forEach((s) => f.append(`${name}[]`, pick(s)));
  list('shipperref', (s) => s.shipperref.trim());
  list('consigneeref', (s) => s.consigneeref.trim());
  list('consigneeemail', (s) => s.consigneeemail.trim());
  list('adr', (s) => (s.adr ? '1' : '0'));
  list('taillift', (s) => (s.taillift ? '1' : '0'));
  for (const end of ['pickup', 'delivery'] as const) {
    list(`${end}date`, (s) => s[end].date);
    list(`${end}timefrom`, (s) => s[end].timeFrom);
    list(`${end}timeto`, (s) => s[end].timeTo);
    list(`${end}locationname`, (s) => s[end].locationName.trim());
    list(`${end}address`, (s) => s[end].address.trim());
    list(`${end}postalcode`, (s) => s[end].postalCode.trim());
    list(`${end}city`, (s) => s[end].city.trim());
    list(`${end}province`, (s) => s[end].province.trim());
    list(`${end}country`, (s) => s[end].country);
    list(`${end}notes`, (s) => s[end].notes.trim());
  }
  if (!h) {
    list('units', (s) => s.units.trim());
    // The server reads a dot: the user's decimal (readDecimal) in its form.
    const dec = (v: string) => String(readDecimal(v, locale) ?? v.trim());
    list('weight', (s) => dec(s.weight));
    list('volume', (s) => dec(s.volume));
    list('volumeType', (s) => s.volumeType);
  } else {
    const q = h.costRequest;
    const put = (k: string, v: unknown) => {
      if (v !== undefined && v !== null && v !== '') f.append(k, String(v));
    };
    for (const k of [
      'zone',
      'service',
      'flow',
      'island',
      'originCountry',
      'originPostalCode',
      'originLocality',
      'originProvince',
      'destinationCountry',
      'destinationPostalCode',
      'destinationLocality',
      'destinationProvince',
      'standardunits',
      'standardweight',
      'standardvolume',
      'standardvolumeType',
      'calculationRatio',
    ] as const)
      put(k, q[k]);
    for (const k of ['palletWeight', 'palletWidth', 'palletLength', 'palletHeight'] as const) (q[k] ?? []).forEach((v) => f.append(`${k}[]`, String(v)));
    const { price, fee, leadTime } = quotedFigures(h);
    if (h.shipmentType === 'palletExpress') put('shipmentclass', h.shipmentClass);
    if (contact) {
      put('shipmentprice', price.toFixed(2));
      put('adminfee', fee.toFixed(2));
      put('shipmentleadtime', leadTime);
    } else {
      put('cost', price.toFixed(2));
      put('admin_fees', fee.toFixed(2));
    }
  }
  if (notes.trim()) f.append('notes', notes.trim());
  if (contact) {
    f.append('visitor_company', contact.company.trim());
    for (const k of ['firstname', 'lastname', 'email', 'phone'] as const) f.append(k, contact[k].trim());
  }
  for (const d of docs) {
    if (!d.file || !d.type) continue;
    f.append('documents[]', d.file, d.file.name);
    f.append('doctypes[]', String(d.type));
  }
  return f;
}

/** A server field error (`pickupdate`, `pickupdate.1`) as the form's field path. */
export function serverFieldPath(key: string): string | null {
  const m = /^([a-zA-Z_]+)(?:\.(\d+))?$/.exec(key);
  if (!m) return null;
  const i = m[2] ?? '0';
  const name = m[1];
  const end = name.startsWith('pickup') ? 'pickup' : name.startsWith('delivery') ? 'delivery' : null;
  const map: Record<string, string> = {
    date: 'date',
    timefrom: 'timeFrom',
    timeto: 'timeTo',
    locationname: 'locationName',
    address: 'address',
    postalcode: 'postalCode',
    city: 'city',
    province: 'province',
    country: 'country',
    notes: 'notes',
  };
  if (end) {
    const f = map[name.slice(end.length)];
    return f ? `s${i}.${end}.${f}` : null;
  }
  if (['shipperref', 'consigneeref', 'consigneeemail', 'units', 'weight', 'volume', 'volumeType'].includes(name)) return `s${i}.${name}`;
  if (['firstname', 'lastname', 'email', 'phone'].includes(name)) return `contact.${name}`;
  if (name === 'visitor_company') return 'contact.company';
  return null;
}
