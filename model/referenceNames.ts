import type { Lang } from './resource';

/**
 * The names per language of the reference data every installation starts with (issue 35, item 6): document
 * types, shipment types and ticket categories, each keyed by its stored `name` (Italian, the portal's first
 * language, which stays the unique key the seed and the imports use), and the titles of a person. The seed
 * (server/seed/catalogue.ts) writes them in the tables' `it`, `en`, `fr` columns; migration 0025 fills them in
 * for the rows an older database already holds (a row an admin added keeps empty columns: its `name` shows).
 */
export type Names = Record<Lang, string>;

export const DOCUMENT_TYPE_NAMES: Record<string, Names> = {
  DDT: { it: 'DDT', en: 'Delivery note (DDT)', fr: 'Bon de livraison (DDT)' },
  CMR: { it: 'CMR', en: 'CMR consignment note', fr: 'Lettre de voiture CMR' },
  'Fattura commerciale': { it: 'Fattura commerciale', en: 'Commercial invoice', fr: 'Facture commerciale' },
  'Packing list': { it: 'Packing list', en: 'Packing list', fr: 'Liste de colisage' },
  'Scheda di sicurezza ADR': { it: 'Scheda di sicurezza ADR', en: 'ADR safety data sheet', fr: 'Fiche de données de sécurité ADR' },
  'Documento doganale': { it: 'Documento doganale', en: 'Customs document', fr: 'Document douanier' },
  'Certificato di origine': { it: 'Certificato di origine', en: 'Certificate of origin', fr: 'Certificat d’origine' },
  Altro: { it: 'Altro', en: 'Other', fr: 'Autre' },
};

export const SHIPMENT_TYPE_NAMES: Record<string, Names> = {
  Pallet: { it: 'Pallet', en: 'Pallets', fr: 'Palettes' },
  'Colli (units)': { it: 'Colli', en: 'Parcels (units)', fr: 'Colis' },
  'Carico completo (FTL)': { it: 'Carico completo (FTL)', en: 'Full truckload (FTL)', fr: 'Camion complet (FTL)' },
};

export const TICKET_CATEGORY_NAMES: Record<string, Names> = {
  'Preventivi e tariffe': { it: 'Preventivi e tariffe', en: 'Quotes and rates', fr: 'Devis et tarifs' },
  'Richiesta di trasporto': { it: 'Richiesta di trasporto', en: 'Transport request', fr: 'Demande de transport' },
  Ritiro: { it: 'Ritiro', en: 'Pickup', fr: 'Enlèvement' },
  Consegna: { it: 'Consegna', en: 'Delivery', fr: 'Livraison' },
  'Danni o ammanchi': { it: 'Danni o ammanchi', en: 'Damage or shortage', fr: 'Avarie ou manquant' },
  Fatturazione: { it: 'Fatturazione', en: 'Billing', fr: 'Facturation' },
  'Account e accesso': { it: 'Account e accesso', en: 'Account and sign-in', fr: 'Compte et connexion' },
  Altro: { it: 'Altro', en: 'Other', fr: 'Autre' },
};

/**
 * A person's titles (a user's `title`, free text the documents require): the usual ones in each language. A
 * stored title that is one of these, in any language, reads in the reader's language (`titleIn`); another
 * text is shown as written (a title is a person's own word, not a code).
 */
export const TITLES: readonly Names[] = [
  { it: 'Sig.', en: 'Mr', fr: 'M.' },
  { it: 'Sig.ra', en: 'Ms', fr: 'Mme' },
  { it: 'Dott.', en: 'Dr', fr: 'Dr' },
  { it: 'Dott.ssa', en: 'Dr', fr: 'Dre' },
  { it: 'Ing.', en: 'Eng.', fr: 'Ing.' },
  { it: 'Avv.', en: 'Atty.', fr: 'Me' },
  { it: 'Prof.', en: 'Prof.', fr: 'Pr' },
];

const titleKey = (t: string) => t.trim().toLowerCase().replace(/\.$/, '');

/** A title in `lang` when it is one of TITLES in any language (case and a final dot aside), else as written. */
export function titleIn(title: string | null | undefined, lang: Lang): string | null {
  if (title == null) return title ?? null;
  const key = titleKey(title);
  if (!key) return title;
  // The reader's own word first ("Dr" is both Dott. and Dott.ssa in English: an English reader keeps it).
  if (TITLES.some((t) => titleKey(t[lang]) === key)) return title;
  const found = TITLES.find((t) => (['it', 'en', 'fr'] as const).some((l) => titleKey(t[l]) === key));
  return found ? found[lang] : title;
}
