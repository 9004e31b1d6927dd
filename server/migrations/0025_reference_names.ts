import { createRequire } from 'node:module';
import type { Kysely } from 'kysely';
import countries from 'i18n-iso-countries';
import { DOCUMENT_TYPE_NAMES, SHIPMENT_TYPE_NAMES, TICKET_CATEGORY_NAMES, type Names } from '../../model/referenceNames.js';

const require = createRequire(import.meta.url);
const LANGS = ['it', 'en', 'fr'] as const;
for (const l of LANGS) countries.registerLocale(require(`i18n-iso-countries/langs/${l}.json`));

/** The tables that name their rows per language from now on (the countries already had the columns, 0001). */
const TABLES: Record<'document_types' | 'shipment_types' | 'ticket_categories', Record<string, Names>> = {
  document_types: DOCUMENT_TYPE_NAMES,
  shipment_types: SHIPMENT_TYPE_NAMES,
  ticket_categories: TICKET_CATEGORY_NAMES,
};

/**
 * Reference data named per language (issue 35, item 6): document types, shipment types and ticket categories
 * get `it`, `en`, `fr` columns (nullable: a row an admin adds may leave them empty, its `name` then shows),
 * filled for the rows the seed wrote (matched by `name`); the countries' `it`, `en`, `fr` that an older
 * database left empty are filled from the ISO country data in each language (by ISO alpha-2, else code).
 * Answers read them through server/lib/declaredScope.ts `languageColumns`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, names] of Object.entries(TABLES)) {
    for (const l of LANGS) await db.schema.alterTable(table).addColumn(l, 'text').execute();
    for (const [name, n] of Object.entries(names)) await db.updateTable(table).set({ it: n.it, en: n.en, fr: n.fr }).where('name', '=', name).execute();
  }
  const rows = await db.selectFrom('countries').select(['id', 'code_alpha', 'iso_alpha_2', 'it', 'en', 'fr']).execute();
  for (const r of rows as Array<Record<string, string | number | null>>) {
    const a2 = String(r.iso_alpha_2 || r.code_alpha || '');
    const set: Record<string, string> = {};
    for (const l of LANGS) {
      const name = r[l] ? null : countries.getName(a2, l);
      if (name) set[l] = name;
    }
    if (Object.keys(set).length) await db.updateTable('countries').set(set).where('id', '=', r.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(TABLES)) for (const l of LANGS) await db.schema.alterTable(table).dropColumn(l).execute();
}
