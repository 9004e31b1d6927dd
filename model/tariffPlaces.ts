/**
 * The Italian places tariff files name: the 107 province siglas (ISTAT list in force until the 2025
 * Sardinian reform) and the island names of server.md §9. Shared by the importer (a row naming an
 * unknown sigla or island would never match a quote, so it is refused) and the demo seed.
 *
 * Kept here because the reference provinces table of the lookups area may not be there yet; when it is,
 * the importer can read the siglas from it instead (same values).
 */
export const PROVINCE_SIGLAS = [
  // Piemonte, Valle d'Aosta
  'TO',
  'VC',
  'NO',
  'CN',
  'AT',
  'AL',
  'BI',
  'VB',
  'AO',
  // Lombardia
  'VA',
  'CO',
  'SO',
  'MI',
  'BG',
  'BS',
  'PV',
  'CR',
  'MN',
  'LC',
  'LO',
  'MB',
  // Trentino-Alto Adige, Veneto, Friuli-Venezia Giulia
  'BZ',
  'TN',
  'VR',
  'VI',
  'BL',
  'TV',
  'VE',
  'PD',
  'RO',
  'UD',
  'GO',
  'TS',
  'PN',
  // Liguria, Emilia-Romagna
  'IM',
  'SV',
  'GE',
  'SP',
  'PC',
  'PR',
  'RE',
  'MO',
  'BO',
  'FE',
  'RA',
  'FC',
  'RN',
  // Toscana, Umbria, Marche
  'MS',
  'LU',
  'PT',
  'FI',
  'LI',
  'PI',
  'AR',
  'SI',
  'GR',
  'PO',
  'PG',
  'TR',
  'PU',
  'AN',
  'MC',
  'AP',
  'FM',
  // Lazio, Abruzzo, Molise
  'VT',
  'RI',
  'RM',
  'LT',
  'FR',
  'AQ',
  'TE',
  'PE',
  'CH',
  'CB',
  'IS',
  // Campania, Puglia, Basilicata, Calabria
  'CE',
  'BN',
  'NA',
  'AV',
  'SA',
  'FG',
  'BA',
  'TA',
  'BR',
  'LE',
  'BT',
  'PZ',
  'MT',
  'CS',
  'CZ',
  'RC',
  'KR',
  'VV',
  // Sicilia, Sardegna
  'TP',
  'PA',
  'ME',
  'AG',
  'CL',
  'EN',
  'CT',
  'RG',
  'SR',
  'SS',
  'NU',
  'CA',
  'OR',
  'SU',
] as const;

/** Sicilia and Sardegna, then the inhabited minor islands (server.md §9), spelled as the island list. */
export const ISLAND_NAMES = [
  'Sicilia',
  'Sardegna',
  'Elba',
  'Capraia',
  'Giglio',
  'Capri',
  'Ischia',
  'Procida',
  'Ponza',
  'Ventotene',
  'Tremiti',
  'Eolie',
  'Egadi',
  'Pantelleria',
  'Pelagie',
  'Ustica',
  'La Maddalena',
  'San Pietro',
  "Sant'Antioco",
] as const;

const SIGLA_SET = new Set<string>(PROVINCE_SIGLAS);
export const isProvinceSigla = (v: string) => SIGLA_SET.has(v.trim().toUpperCase());

const ISLAND_BY_KEY = new Map<string, string>(ISLAND_NAMES.map((n) => [islandKey(n), n]));
function islandKey(name: string) {
  return name.trim().toLowerCase().replace(/[’`´]/g, "'").replace(/\s+/g, ' ');
}
/** The canonical spelling of an island name given in any case (typographic apostrophes accepted), or null. */
export const canonicalIsland = (v: string): string | null => ISLAND_BY_KEY.get(islandKey(v)) ?? null;
