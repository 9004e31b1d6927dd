import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { Db } from '../db/index.js';
import { COMPANY_ROLES, SUPPORT_ROLES, USER_ROLES } from '../../model/roles.js';
import { LANGUAGES } from '../../model/languages.js';
import { nowIso } from '../lib/tokens.js';
import { insertMissing } from './insertMissing.js';
import { seedCatalogue } from './catalogue.js';
import { seedPlaces } from './places.js';

const require = createRequire(import.meta.url);
const NAME_LANGS = ['de', 'en', 'es', 'fr', 'it'] as const;
for (const l of NAME_LANGS) countries.registerLocale(require(`i18n-iso-countries/langs/${l}.json`));

/** Reference data every installation needs: roles, languages, countries (names in five languages, ISO codes). */
export async function seedReference(db: Db) {
  const roles = (m: Record<number, string>) => Object.entries(m).map(([id, name]) => ({ id: Number(id), name }));
  await insertMissing(db, 'user_roles', 'id', roles(USER_ROLES));
  await insertMissing(db, 'company_roles', 'id', roles(COMPANY_ROLES));
  await insertMissing(db, 'support_roles', 'id', roles(SUPPORT_ROLES));
  await insertMissing(db, 'languages', 'code', [...LANGUAGES]);

  const created = nowIso();
  const rows = Object.keys(countries.getAlpha2Codes())
    .sort()
    .map((a2) => {
      const names = Object.fromEntries(NAME_LANGS.map((l) => [l, countries.getName(a2, l) ?? null]));
      return {
        name: names.en ?? a2,
        code_alpha: a2,
        symbol: null,
        active: '1',
        ...names,
        iso_alpha_2: a2,
        iso_alpha_3: countries.alpha2ToAlpha3(a2) ?? null,
        un_code: countries.alpha2ToNumeric(a2) ?? null,
        created_at: created,
      };
    });
  await insertMissing(db, 'countries', 'code_alpha', rows);
  await seedCatalogue(db);
  await seedPlaces(db);
}
