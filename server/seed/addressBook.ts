import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import type { AddressKind } from '../../model/resources/address-book.js';

interface DemoPlace {
  name: string;
  kind: AddressKind;
  address: string;
  postal_code: string;
  city: string;
  province: string | null;
  /** ISO alpha-2 (the countries' `code_alpha`). */
  country: string;
  contact?: string;
  phone?: string;
  email?: string;
  opening_hours?: string;
  notes?: string;
}

/**
 * The demo end user's places (Rossi Logistica, Bologna): its own warehouses where goods leave, the customers
 * its demo requests go to (server/seed/requests.ts) and one abroad, so the booking form's "Scegli dalla
 * rubrica" has something to pick for pickup and for delivery, and the country filter has two countries.
 */
const ENDUSER_PLACES: DemoPlace[] = [
  {
    name: 'Sede Rossi Logistica',
    kind: 'both',
    address: 'Via Emilia 120',
    postal_code: '40133',
    city: 'Bologna',
    province: 'BO',
    country: 'IT',
    contact: 'Elena Rossi',
    phone: '+39 051 555 0202',
    email: 'spedizioni@rossi-logistica.demo',
    opening_hours: 'Lun–Ven 8:00–12:30, 14:00–17:30',
  },
  {
    name: 'Magazzino Interporto Bologna',
    kind: 'pickup',
    address: 'Interporto Blocco 8.2',
    postal_code: '40010',
    city: 'Bentivoglio',
    province: 'BO',
    country: 'IT',
    contact: 'Marco Venturi',
    phone: '+39 051 555 0210',
    opening_hours: 'Lun–Ven 6:00–14:00',
    notes: 'Ritiri alla baia 4; portare il numero d’ordine.',
  },
  {
    name: 'Arredi Navigli S.r.l.',
    kind: 'delivery',
    address: 'Ripa di Porta Ticinese 21',
    postal_code: '20143',
    city: 'Milano',
    province: 'MI',
    country: 'IT',
    contact: 'Giulia Ferri',
    phone: '+39 02 555 0343',
    opening_hours: 'Lun–Sab 9:00–13:00',
  },
  {
    name: 'Ferramenta Colosseo',
    kind: 'delivery',
    address: 'Via Labicana 44',
    postal_code: '00184',
    city: 'Roma',
    province: 'RM',
    country: 'IT',
    phone: '+39 06 555 0188',
  },
  {
    name: 'Officine Lingotto',
    kind: 'delivery',
    address: 'Via Nizza 230',
    postal_code: '10126',
    city: 'Torino',
    province: 'TO',
    country: 'IT',
    contact: 'Paolo Bruno',
    phone: '+39 011 555 0230',
    email: 'ricevimento@officine-lingotto.demo',
    opening_hours: 'Lun–Ven 7:30–16:00',
    notes: 'Scarico con sponda idraulica: niente muletto.',
  },
  {
    name: 'Pelletteria Oltrarno',
    kind: 'delivery',
    address: 'Via Maggio 8',
    postal_code: '50125',
    city: 'Firenze',
    province: 'FI',
    country: 'IT',
    notes: 'ZTL: consegne solo 6:00–7:30.',
  },
  {
    name: 'Entrepôt Lyon Corbas',
    kind: 'delivery',
    address: '12 Rue Marcel Mérieux',
    postal_code: '69960',
    city: 'Corbas',
    province: null,
    country: 'FR',
    contact: 'Claire Martin',
    phone: '+33 4 55 50 12 12',
    opening_hours: 'Lun–Ven 8:00–16:00',
  },
];

/** The demo carrier's places (Acme Trasporti, Milano): its hub and the depots it moves goods through. */
const CARRIER_PLACES: DemoPlace[] = [
  {
    name: 'Hub Milano Mecenate',
    kind: 'both',
    address: 'Via Mecenate 76',
    postal_code: '20138',
    city: 'Milano',
    province: 'MI',
    country: 'IT',
    contact: 'Carlo Corriere',
    phone: '+39 02 5555 0101',
    email: 'ops@acme-trasporti.demo',
    opening_hours: 'Lun–Ven 6:00–20:00, Sab 6:00–12:00',
  },
  {
    name: 'Deposito Piacenza Le Mose',
    kind: 'both',
    address: 'Strada Dogana Po 2',
    postal_code: '29122',
    city: 'Piacenza',
    province: 'PC',
    country: 'IT',
    phone: '+39 0523 555 044',
    opening_hours: 'Lun–Ven 7:00–19:00',
  },
  {
    name: 'Transit point Verona Quadrante Europa',
    kind: 'both',
    address: 'Via Sommacampagna 61',
    postal_code: '37137',
    city: 'Verona',
    province: 'VR',
    country: 'IT',
    phone: '+39 045 555 0377',
  },
  {
    name: 'Interporto Campano Nola',
    kind: 'delivery',
    address: 'Interporto Campano, Lotto C',
    postal_code: '80035',
    city: 'Nola',
    province: 'NA',
    country: 'IT',
    contact: 'Antonio Esposito',
    phone: '+39 081 555 0190',
    notes: 'Prenotare lo scarico il giorno prima.',
  },
];

/**
 * Demo places in the address book (issue 34) of the demo end user's company and of the demo carrier, so their
 * address book and the booking form's picker are not empty. Runs once: skipped when the demo companies are
 * missing or either already has places (a user's own places are never touched).
 */
export async function seedDemoAddressBook(db: Db) {
  const companyOf = (email: string) =>
    db
      .selectFrom('users')
      .select('company_id')
      .where('email', '=', email)
      .executeTakeFirst()
      .then((r) => r?.company_id);
  const enduser = await companyOf('enduser@portal.demo');
  const carrier = await companyOf('carrier@portal.demo');
  if (!enduser || !carrier) return false;
  const existing = await db.selectFrom('address_book').select('id').where('company_id', 'in', [enduser, carrier]).executeTakeFirst();
  if (existing) return false;
  const countries = new Map(
    (await db.selectFrom('countries').select(['id', 'code_alpha']).where('code_alpha', 'in', ['IT', 'FR']).execute()).map((c) => [c.code_alpha, c.id]),
  );
  const now = nowIso();
  const rows = [...ENDUSER_PLACES.map((p) => ({ p, company_id: enduser })), ...CARRIER_PLACES.map((p) => ({ p, company_id: carrier }))].flatMap(
    ({ p, company_id }) => {
      const country_id = countries.get(p.country);
      if (!country_id) return [];
      return [
        {
          company_id,
          name: p.name,
          kind: p.kind,
          address: p.address,
          postal_code: p.postal_code,
          city: p.city,
          province: p.province,
          country_id,
          contact: p.contact ?? null,
          phone: p.phone ?? null,
          email: p.email ?? null,
          opening_hours: p.opening_hours ?? null,
          notes: p.notes ?? null,
          created_at: now,
        },
      ];
    },
  );
  try {
    if (rows.length) await db.insertInto('address_book').values(rows).execute();
  } catch (err) {
    // Another server process seeded them first (the unique name per company refused ours).
    if (await db.selectFrom('address_book').select('id').where('company_id', 'in', [enduser, carrier]).executeTakeFirst()) return false;
    throw err;
  }
  return true;
}
