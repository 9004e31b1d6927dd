import type { Db } from '../db/index.js';

/**
 * The reference places pricing checks a request against (pricing.md §0, §2.3): Italian province sigle,
 * municipalities with their province, the island list, and the ISO alpha-2 country codes.
 *
 * Choice: this is read-only reference data loaded at first start, so each process keeps it in memory
 * (about 8 000 municipalities) and reloads it every 10 minutes, instead of three queries per quote.
 * It is not shared mutable state (server.md §10): a process that reloads later only sees a newer
 * copy of the same list.
 *
 * The tables belong to the reference-data area (migrations/0003_reference.ts).
 */

export interface PlaceReference {
  /** province sigle, upper case */
  provinces: Set<string>;
  /** municipality name (lower case, trimmed) → the sigle of the provinces that have one of that name */
  municipalities: Map<string, string[]>;
  /** `city|PROVINCE` (city lower case) → its island; a minor island wins over Sicilia and Sardegna */
  islands: Map<string, string>;
  /** ISO alpha-2 country codes, upper case */
  countries: Set<string>;
  loadedAt: number;
}

const TTL_MS = 10 * 60_000;
const REGION_ISLANDS = new Set(['sicilia', 'sardegna']);
const cache = new WeakMap<Db, { value?: PlaceReference; loading?: Promise<PlaceReference> }>();

export const islandKey = (city: string, province: string) => `${city.trim().toLowerCase()}|${province.trim().toUpperCase()}`;

async function load(db: Db): Promise<PlaceReference> {
  const rdb = db;
  const [provinces, municipalities, islands, countries] = await Promise.all([
    rdb.selectFrom('provinces').select('sigla').execute(),
    rdb.selectFrom('municipalities').select(['name', 'province']).execute(),
    rdb.selectFrom('island_places').select(['island', 'city', 'province']).execute(),
    rdb.selectFrom('countries').select(['iso_alpha_2', 'code_alpha']).execute(),
  ]);
  const ref: PlaceReference = {
    provinces: new Set(provinces.map((p) => p.sigla.trim().toUpperCase())),
    municipalities: new Map(),
    islands: new Map(),
    countries: new Set(countries.map((c) => (c.iso_alpha_2 || c.code_alpha).trim().toUpperCase())),
    loadedAt: Date.now(),
  };
  for (const m of municipalities) {
    const k = m.name.trim().toLowerCase();
    const list = ref.municipalities.get(k) ?? [];
    const prov = m.province.trim().toUpperCase();
    if (!list.includes(prov)) list.push(prov);
    ref.municipalities.set(k, list);
  }
  for (const i of islands) {
    const k = islandKey(i.city, i.province);
    const had = ref.islands.get(k);
    // a minor island takes precedence over its region (server.md §9)
    if (had === undefined || REGION_ISLANDS.has(had.trim().toLowerCase())) ref.islands.set(k, i.island.trim());
  }
  return ref;
}

/** The reference places of this database, loaded on first use and reloaded every 10 minutes. */
export async function placeReference(db: Db): Promise<PlaceReference> {
  let entry = cache.get(db);
  if (!entry) cache.set(db, (entry = {}));
  const fresh = entry.value && Date.now() - entry.value.loadedAt < TTL_MS;
  if (fresh) return entry.value!;
  if (!entry.loading) {
    const e = entry;
    e.loading = load(db)
      .then((v) => {
        e.value = v;
        return v;
      })
      .finally(() => {
        e.loading = undefined;
      });
    e.loading.catch(() => undefined); // a failed background reload keeps the stale copy
  }
  // a stale copy keeps answering while the new one loads
  return entry.value ?? entry.loading!;
}

/** The loaded copy when it is fresh, without a promise (issue 37: the quote's synchronous path); else undefined. */
export function placeReferenceNow(db: Db): PlaceReference | undefined {
  const value = cache.get(db)?.value;
  return value && Date.now() - value.loadedAt < TTL_MS ? value : undefined;
}

/** Forgets the loaded copy (tests that change the reference tables; an admin edit of them). */
export function invalidatePlaceReference(db: Db) {
  cache.delete(db);
}
