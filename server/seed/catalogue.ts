import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import { insertMissing } from './insertMissing.js';
import { DOCUMENT_TYPE_NAMES, SHIPMENT_TYPE_NAMES, TICKET_CATEGORY_NAMES, type Names } from '../../model/referenceNames.js';

/**
 * Currencies from the ISO 4217 list that Node's ICU (CLDR data) carries: code, English name and the
 * narrow symbol (€, $, £, CHF). The portal prices in euro; the euro and the currencies of Italy's
 * neighbours and main trading partners start active, the others inactive (an admin switches them on).
 */
const ACTIVE_CURRENCIES = new Set(['EUR', 'CHF', 'GBP', 'USD']);
export function currencyRows(created = nowIso()) {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  // ICU also knows some withdrawn currencies, named with their years ("Zimbabwean Dollar (2009–2024)").
  return Intl.supportedValuesOf('currency')
    .filter((code) => !/\(\d{4}[–-]\d{4}\)/.test(names.of(code) ?? ''))
    .map((code) => {
      const symbol =
        new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' }).formatToParts(0).find((p) => p.type === 'currency')
          ?.value ?? code;
      return { name: names.of(code) ?? code, code_alpha: code, symbol, active: ACTIVE_CURRENCIES.has(code) ? '1' : '0', created_at: created };
    });
}

/** Documents that travel with a pallet or groupage consignment in Italy and abroad. */
export const DOCUMENT_TYPES = [
  { name: 'DDT', description: 'Documento di trasporto' },
  { name: 'CMR', description: 'Lettera di vettura internazionale (Convenzione CMR)' },
  { name: 'Fattura commerciale', description: 'Fattura o fattura proforma della merce' },
  { name: 'Packing list', description: 'Distinta colli con pesi e misure' },
  { name: 'Scheda di sicurezza ADR', description: 'Scheda di dati di sicurezza per merci pericolose' },
  { name: 'Documento doganale', description: 'DAE/MRN o dichiarazione doganale di esportazione' },
  { name: 'Certificato di origine', description: 'Certificato di origine della merce' },
  { name: 'Altro', description: 'Altro documento' },
];

/** Ids matter: the calculator document fixes shipment_type_id 1 = pallet, 2 = units. */
export const SHIPMENT_TYPES = ['Pallet', 'Colli (units)', 'Carico completo (FTL)'];
/** The service classes of the pallet network (calculator document §9), and the standard groupage service. */
export const TRANSPORT_CLASSES = ['SILVER', 'GOLD', 'STANDARD'];
export const TICKET_CATEGORIES = [
  'Preventivi e tariffe',
  'Richiesta di trasporto',
  'Ritiro',
  'Consegna',
  'Danni o ammanchi',
  'Fatturazione',
  'Account e accesso',
  'Altro',
];
export const PRICE_CATEGORIES = ['Standard', 'Silver', 'Gold', 'Platinum'];

/** Settings of server.md §9; public ones are answered by the `settings` lookup. Values are set by admins. */
export const SETTINGS = [
  { key: 'visitor_company_id', value: null, public: 1 },
  ...[
    'cs_express_hub_costs',
    'cs_express_island_zones',
    'cs_express_hub_codes',
    'cs_express_special_zones',
    'standard_special_zones',
    'standard_no_passage',
    'express_rate_sheet',
    'standard_rate_sheet',
  ].map((key) => ({ key, value: null, public: 1 })),
];

/**
 * Inserts rows of a name-keyed table in order, so a fresh database gets ids 1, 2, 3...; with `perLanguage`, each
 * row's names in it, en, fr (model/referenceNames.ts; issue 35).
 */
async function namedRows(db: Db, table: string, names: string[], withCreated: boolean, perLanguage?: Record<string, Names>) {
  const created = nowIso();
  await insertMissing(
    db,
    table,
    'name',
    names.map((name) => ({ name, ...(withCreated ? { created_at: created } : {}), ...(perLanguage ? languageNames(perLanguage, name) : {}) })),
    1,
  );
}

/** A row's `it`, `en`, `fr` columns from the names of model/referenceNames.ts (empty when it has none). */
const languageNames = (names: Record<string, Names>, name: string) => {
  const n = names[name];
  return { it: n?.it ?? null, en: n?.en ?? null, fr: n?.fr ?? null };
};

export async function seedCatalogue(db: Db) {
  const created = nowIso();
  await insertMissing(db, 'currencies', 'code_alpha', currencyRows(created));
  await insertMissing(
    db,
    'document_types',
    'name',
    DOCUMENT_TYPES.map((d) => ({ ...d, ...languageNames(DOCUMENT_TYPE_NAMES, d.name), active: '1', created_at: created })),
    1,
  );
  await namedRows(db, 'shipment_types', SHIPMENT_TYPES, true, SHIPMENT_TYPE_NAMES);
  await namedRows(db, 'transport_classes', TRANSPORT_CLASSES, true);
  await namedRows(db, 'ticket_categories', TICKET_CATEGORIES, false, TICKET_CATEGORY_NAMES);
  await namedRows(db, 'price_categories', PRICE_CATEGORIES, false);
  await insertMissing(db, 'settings', 'key', SETTINGS);
}
