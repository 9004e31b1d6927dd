/**
 * Request bodies of the load: the quotes (routes from Milano across Italy, pallets and groupage, as in
 * scripts/bench-quote.ts), the create-request form as the browser sends it (multipart, per-shipment
 * `name[]` lists; from a quote or entered by hand, sometimes with a document), chat texts.
 */
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { mulberry32 } from '../benchKit.js';
import type { QuoteRequest } from '../../model/quote.js';

export type Rng = () => number;
/** A small seeded generator, so a run's mix can be repeated (LOAD_SEED). */
export const rng: (seed: number) => Rng = mulberry32;
export const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)];

const FROM = { originCountry: 'IT', originPostalCode: '20121', originLocality: 'Milano', originProvince: 'MI' };
const TO = [
  ['00118', 'Roma', 'RM'],
  ['80121', 'Napoli', 'NA'],
  ['10121', 'Torino', 'TO'],
  ['50122', 'Firenze', 'FI'],
  ['70121', 'Bari', 'BA'],
  ['40121', 'Bologna', 'BO'],
] as const;
const PALLETS = [
  { palletWeight: [250], palletWidth: [120], palletLength: [80], palletHeight: [90] },
  { palletWeight: [250, 480, 120], palletWidth: [120, 120, 80], palletLength: [80, 100, 120], palletHeight: [90, 140, 75] },
];
const GROUPAGE = [
  { standardunits: 4, standardweight: 480, standardvolume: 2.1, standardvolumeType: 'CBM' as const },
  { standardunits: 12, standardweight: 1800, standardvolume: 3.5, standardvolumeType: 'LM' as const },
];

/** A cost request (model/quote.ts) between Italian places, which always name their locality and province. */
export type QuoteBody = QuoteRequest & { originLocality: string; originProvince: string; destinationLocality: string; destinationProvince: string };

/** Every quote body of the mix (6 destinations × 2 pallet sets + 2 groupage loads). */
export const QUOTES: QuoteBody[] = TO.flatMap(([cap, city, prov]) => {
  const route = { ...FROM, destinationCountry: 'IT', destinationPostalCode: cap, destinationLocality: city, destinationProvince: prov };
  return [
    ...PALLETS.map((p) => ({ zone: 'national' as const, service: 'palletExpress' as const, flow: 'OUT' as const, ...route, ...p })),
    ...GROUPAGE.map((g) => ({ zone: 'national' as const, service: 'standard' as const, ...route, ...g })),
  ];
});

/** The price a quote answer shows for a class (what the browser puts in the create form). */
export function quotedPrice(body: QuoteBody, data: any, cls: 'SILVER' | 'GOLD') {
  if (body.service === 'palletExpress') {
    const p = data.prices_list;
    return { cost: Number(p[`x_total_${cls.toLowerCase()}_sell`]), fee: Number(p.admin_fee) };
  }
  return { cost: Number(data.costo_complete.shipment_cost), fee: Number(data.costo_complete.admin_fee) };
}

const PLACES = [
  ['Magazzino Rossi', 'Via Emilia 120', '40133', 'Bologna', 'BO'],
  ['Cliente Roma', 'Via Appia 5', '00183', 'Roma', 'RM'],
  ['Deposito Nord', 'Via Nizza 230', '10126', 'Torino', 'TO'],
  ['Market Vomero', 'Via Scarlatti 60', '80129', 'Napoli', 'NA'],
  ['Pelletteria Oltrarno', 'Via Maggio 8', '50125', 'Firenze', 'FI'],
  ['Arredi Navigli', 'Ripa di Porta Ticinese 21', '20143', 'Milano', 'MI'],
] as const;

export interface ShipmentSent {
  ref: string;
  pickup: { postal: string; city: string };
  delivery: { postal: string; city: string };
  units?: number;
  weight?: number;
}

/** The per-shipment fields of the create form; the goods only when typed by hand. */
export function shipmentFields(r: Rng, seq: number, count: number, byHand: boolean) {
  const fields: Record<string, string[]> = {};
  const sent: ShipmentSent[] = [];
  const put = (k: string, v: string) => (fields[k] ??= []).push(v);
  const pickupDate = addDays(romeDate(), 1 + Math.floor(r() * 5));
  for (let i = 0; i < count; i++) {
    const [pl, pa, pc, pcity, pp] = pick(r, PLACES);
    let d = pick(r, PLACES);
    while (d[2] === pc) d = pick(r, PLACES);
    const ref = `LOAD-${seq}-${i + 1}`;
    const units = 1 + Math.floor(r() * 30);
    const weight = Math.round((50 + r() * 4000) * 10) / 10;
    put('shipperref', ref);
    put('consigneeref', `DEST-${seq}-${i + 1}`);
    put('adr', '0');
    put('taillift', byHand && r() < 0.2 ? '1' : '0'); // a tail lift changes a quote's price
    put('pickupdate', pickupDate);
    put('pickuptimefrom', '08:00');
    put('pickuptimeto', '12:00');
    put('pickuplocationname', pl);
    put('pickupaddress', pa);
    put('pickuppostalcode', pc);
    put('pickupcity', pcity);
    put('pickupprovince', pp);
    put('pickupcountry', 'IT');
    put('pickupnotes', '');
    put('deliverydate', '');
    put('deliverytimefrom', '');
    put('deliverytimeto', '');
    put('deliverylocationname', d[0]);
    put('deliveryaddress', d[1]);
    put('deliverypostalcode', d[2]);
    put('deliverycity', d[3]);
    put('deliveryprovince', d[4]);
    put('deliverycountry', 'IT');
    put('deliverynotes', '');
    if (byHand) {
      put('units', String(units));
      put('weight', String(weight));
      put('volume', (r() * 10).toFixed(1));
      put('volumeType', 'CBM');
    }
    sent.push({ ref, pickup: { postal: pc, city: pcity }, delivery: { postal: d[2], city: d[3] }, ...(byHand ? { units, weight } : {}) });
  }
  return { fields, sent };
}

/** The quote's own fields in the create form (the quote's places replace the typed ones). */
export function quoteFields(q: QuoteBody): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(q)) out[k] = Array.isArray(v) ? v.map(String) : String(v);
  return out;
}

export const pdf = (r: Rng, seq: number) => ({
  filename: `bolla ${seq}.pdf`,
  type: 'application/pdf',
  data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2048 + Math.floor(r() * 16384), 65)]),
});

const TOPICS = ['ritiro in ritardo', 'fattura di marzo', 'modifica indirizzo di consegna', 'pallet danneggiato', 'tempi di resa per Bari'];
export const subject = (r: Rng, seq: number) => `Richiesta ${seq}: ${pick(r, TOPICS)}`;
const OPENERS = ['Buongiorno,', 'Salve,', 'Gentile assistenza,', 'Ciao,'];
const BODIES = [
  'la spedizione LOAD-{n} è ancora in magazzino? Il cliente aspetta da ieri.',
  'potete confermare il ritiro di domani mattina tra le 8:00 e le 12:00?',
  'ho bisogno della prova di consegna (POD) per l’ordine {n} — grazie!',
  'il peso reale è 480 kg, non 450: serve ricalcolare?\nAllego i dettagli nel prossimo messaggio.',
  'tutto chiaro, procediamo così. ✓',
];
export const message = (r: Rng, seq: number) => `${pick(r, OPENERS)} ${pick(r, BODIES).replace('{n}', String(seq))} [#${seq}]`;
