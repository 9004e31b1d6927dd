import { TABLE_NAMES } from '../../model/resources/tariffs.js';
import { TARIFF_TABLES } from '../../model/tariffs.js';
import { translate, type Lang } from '../i18n/index.js';

/**
 * Every file the API answers as a download goes through here (issue 36 item 5, docs/request-documents.md
 * "File names"): the name in the caller's language (`server/i18n/downloads.ts`) and one Content-Disposition
 * form. A file a user uploaded (a request's document, a rate sheet's original, a portal template) keeps the
 * name it was uploaded with: that name is the user's, not the portal's; it still goes through `attachment`.
 */

/** A label as a file-name word: accents dropped, lower case, anything else than a letter or a digit a hyphen. */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** RFC 5987 `attr-char` percent-encoding (encodeURIComponent leaves ' ( ) * as they are; the RFC does not allow them). */
const extValue = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The Content-Disposition of a download (RFC 6266): always `attachment` (never shown inline by the browser),
 * `filename="…"` an ASCII fallback (accents dropped, any other character outside printable ASCII and the
 * quote and backslash as `_`) for old clients, and `filename*=UTF-8''…` the exact name, which current
 * browsers prefer.
 */
export function attachment(name: string): string {
  const ascii = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${extValue(name)}`;
}

/** The portal's own files, by kind; each answers `<name>.<ext>` in the caller's language. */
export const downloadName = {
  /** lettera-di-vettura-42.pdf / waybill-42.pdf / lettre-de-voiture-42.pdf */
  waybill: (lang: Lang, id: number) => `${translate(lang, 'download.waybill', { id })}.pdf`,
  /** preventivo-P-2026-000123.pdf / quote-… / devis-… (the calculator's quote, its number: lib/quoteNumbers.ts) */
  quote: (lang: Lang, number: string) => `${translate(lang, 'download.quote', { number })}.pdf`,
  /** preventivo-richiesta-42.pdf / quote-request-42.pdf / devis-demande-42.pdf (a stored request's quote) */
  requestQuote: (lang: Lang, id: number) => `${translate(lang, 'download.requestQuote', { id })}.pdf`,
  /** prova-di-consegna-42.png / proof-of-delivery-42.pdf / preuve-de-livraison-42.jpg (the proof of delivery as stored) */
  pod: (lang: Lang, id: number, ext: string) => `${translate(lang, 'download.pod', { id })}.${ext}`,
  /** etichette-42.pdf / labels-42.pdf / etiquettes-42.pdf (the pallet labels; `.zpl` for the thermal printers) */
  labels: (lang: Lang, id: number, ext: 'pdf' | 'zpl' = 'pdf') => `${translate(lang, 'download.labels', { id })}.${ext}`,
  /** a list's export: richieste-di-trasporto-2026-11-29.xlsx, from the list's name in the caller's language */
  export: (title: string, date: string, ext: string) => `${slug(title) || 'export'}-${date}.${ext}`,
  /** an import template: modello-aziende.xlsx / companies-template.xlsx / modele-entreprises.xlsx */
  template: (lang: Lang, title: string, ext: string) => `${translate(lang, 'download.template', { what: slug(title) })}.${ext}`,
  /** a rate sheet's rows as the portal writes them: listino-EXPNAT2026.xlsx / rate-sheet-… / tarif-… (the code as stored) */
  rateSheet: (lang: Lang, code: string) => `${translate(lang, 'download.rateSheet', { code })}.xlsx`,
};

/** The name of a tariff template (a table's or a rate sheet's) in the caller's language: the table's name as its screen shows it. */
export function templateTitle(templateKey: string, lang: Lang): string {
  const table = TARIFF_TABLES.find((t) => t.templateKey === templateKey);
  if (table) return TABLE_NAMES[table.key][lang].many;
  return translate(lang, templateKey === 'express_rate_sheet' ? 'download.expressRateSheet' : 'download.standardRateSheet');
}
