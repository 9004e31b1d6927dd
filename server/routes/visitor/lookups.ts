import type { FastifyRequest } from 'fastify';
import type { Lang } from '../../../model/resource.js';
import { sql } from 'kysely';
import { COMPANY_ROLE, COMPANY_ROLES, SUPPORT_ROLES, USER_ROLES } from '../../../model/roles.js';
import { LANGUAGES } from '../../../model/languages.js';
import { TRANSPORT_REQUEST_STATUSES } from '../../../model/transportStatuses.js';
import { notFound } from '../../lib/errors.js';
import { carrierScope } from '../../lib/scope.js';
import { bool, int, intN, list, obj as row, str, strN, type JsonSchema } from '../../lib/answers.js';
import type { App } from '../../lib/typed.js';
import { cInt, cStr, cStrN, columnsOf, described, oneOf } from '../../lib/columns.js';
import { publicSettings, publicSettingsAnswer } from './settings.js';

const tags = ['visitor lookups'];
const obj = <P extends Record<string, object>>(properties: P) => ({ type: 'object', additionalProperties: false, properties }) as const;
const text = { type: 'string', maxLength: 100 } as const;
const limit = { type: 'integer', minimum: 1, maximum: 500, default: 50 } as const;
const id = { type: 'integer', minimum: 1 } as const;
const ci = (col: string) => sql<string>`lower(${sql.ref(col)})`;
/** A reference row's name in `lang`: its language column, the stored `name` where that is empty (declaredScope.ts `languageColumns`). */
const named = (table: string, lang: Lang) => sql<string>`coalesce(nullif(${sql.ref(`${table}.${lang}`)}, ''), ${sql.ref(`${table}.name`)})`;

/**
 * Every visitor lookup of both documents (accounts §7, calculator §7), answering `{data: [...]}` (or
 * `{category_list}`) from the database. Public, except the ones that expose companies or a carrier's
 * categories: those need a sign-in and answer only the caller's scope (server.md §2). `carriers_list`
 * stays public: an invitation link names a carrier.
 */
export default async function lookupRoutes(app: App) {
  const db = app.db;
  /** A lookup's options: its policy, summary, query and answer. */
  const opts = <Q extends object>(policy: 'public' | 'signedIn', summary: string, querystring: Q, answer: JsonSchema) => ({
    config: { policy },
    schema: { tags, summary, querystring, response: { 200: answer } },
  });
  const get = (url: string, policy: 'public' | 'signedIn', summary: string, answer: JsonSchema, handler: (req: FastifyRequest) => Promise<unknown>) =>
    app.get(`/visitor/${url}`, opts(policy, summary, none, answer), handler);
  const none = obj({});
  const rows = (item: JsonSchema) => row({ data: list(item) });
  const idName = row({ id: int, name: str });

  get('settings', 'public', 'The public settings of the portal.', row({ status: bool, data: publicSettingsAnswer }), async () => {
    const rows = await db.selectFrom('settings').select(['key', 'value']).where('public', '=', 1).orderBy('key').execute();
    return { status: true, data: publicSettings(Object.fromEntries(rows.map((r) => [r.key, r.value]))) };
  });

  // Countries the portal offers (active), with the name in every language; selectors show the user's
  // language column (`it`, `en`, `fr`), so the list comes in the caller's alphabetical order (issue 35:
  // "Germania" among the G of an Italian list, not where "Germany" would be).
  const countryRows = (lang: Lang) =>
    db
      .selectFrom('countries')
      .select(['id', 'name', 'en', 'it', 'fr', 'de', 'es', 'code_alpha', 'iso_alpha_2', 'iso_alpha_3', 'un_code'])
      .where('active', '=', '1')
      .orderBy(sql`lower(${named('countries', lang)})`)
      .orderBy('id')
      .execute();
  const countries = async (req: FastifyRequest) => ({ data: await countryRows(req.lang) });
  // Nullable as the countries declaration says (model/resources/countries.ts: name and code_alpha required).
  // The five names are flat columns (the table's), not a per-language map: a client reads `en` or `it` directly.
  const country = rows(
    columnsOf<Awaited<ReturnType<typeof countryRows>>[number]>()({
      id: cInt,
      name: cStr,
      en: cStrN,
      it: cStrN,
      fr: cStrN,
      de: cStrN,
      es: cStrN,
      code_alpha: described(cStr, "The country's own code (ISO alpha-2 for the seeded ones)"),
      iso_alpha_2: cStrN,
      iso_alpha_3: cStrN,
      un_code: cStrN,
    }),
  );
  get('countries', 'public', 'The countries the portal offers.', country, countries);
  get('country_list', 'public', "The countries the portal offers (the calculator's name of the list).", country, countries);

  // The languages table holds the seeded LANGUAGES only (model/languages.ts; no route writes it): a fixed set.
  const languageRows = () => db.selectFrom('languages').select(['id', 'code', 'en', 'native']).orderBy('id').execute();
  const language = columnsOf<Awaited<ReturnType<typeof languageRows>>[number]>()({
    id: cInt,
    code: oneOf(Object.fromEntries(LANGUAGES.map((l) => [l.code, l.en])), 'The language code'),
    en: described(cStr, 'The name in English'),
    native: described(cStrN, 'The name in the language itself'),
  });
  get('languages_list', 'public', 'The languages.', rows(language), async () => ({ data: await languageRows() }));
  // The role tables hold the constants of model/roles.ts (seeded from them): each id and name is one of those.
  const roleRow = (roles: Record<number, string>, what: string) => row({ id: oneOf(roles, what), name: oneOf(Object.values(roles), `The ${what}'s name`) });
  get('company_roles_list', 'public', 'The company roles.', rows(roleRow(COMPANY_ROLES, 'company role')), async () => ({
    data: await db.selectFrom('company_roles').select(['id', 'name']).orderBy('id').execute(),
  }));
  get('user_roles_list', 'public', 'The user roles.', rows(roleRow(USER_ROLES, 'user role')), async () => ({
    data: await db.selectFrom('user_roles').select(['id', 'name']).orderBy('id').execute(),
  }));
  get('support_roles_list', 'public', 'The support roles.', rows(roleRow(SUPPORT_ROLES, 'support role')), async () => ({
    data: await db.selectFrom('support_roles').select(['id', 'name']).orderBy('id').execute(),
  }));
  get('company_price_categories_list', 'public', 'The price categories of companies.', rows(idName), async () => ({
    data: await db.selectFrom('price_categories').select(['id', 'name']).orderBy('id').execute(),
  }));
  // Named in the caller's language (issue 35: the `it`, `en`, `fr` columns, the stored name where that one is empty).
  get('ticket_categories', 'public', "The ticket categories, named in the caller's language.", rows(idName), async (req) => ({
    data: await db
      .selectFrom('ticket_categories')
      .select(['id', named('ticket_categories', req.lang).as('name')])
      .orderBy('id')
      .execute(),
  }));
  get(
    'document_types_list',
    'public',
    "The active document types, named in the caller's language.",
    rows(row({ id: int, name: str, description: strN })),
    async (req) => ({
      data: await db
        .selectFrom('document_types')
        .select(['id', named('document_types', req.lang).as('name'), 'description'])
        .where('active', '=', '1')
        .orderBy('id')
        .execute(),
    }),
  );
  get(
    'transport_request_status_list',
    'public',
    "The transport-request statuses, named in the caller's language.",
    rows(row({ id: int, code: str, name: str })),
    async (req) => ({
      data: TRANSPORT_REQUEST_STATUSES.map((s) => ({ id: s.id, code: s.code, name: req.t(`status.${s.id}`) })),
    }),
  );

  const activeCompanies = (role: number) =>
    db.selectFrom('companies').select(['id', 'legal_name']).where('company_role_id', '=', role).where('status_id', '=', 1).orderBy('legal_name').orderBy('id');

  get('carriers_list', 'public', 'The active carriers.', rows(row({ id: int, legal_name: str })), async () => ({
    data: await activeCompanies(COMPANY_ROLE.CARRIER).execute(),
  }));

  // Resellers are companies: admins see them all, a reseller its own company, others none.
  get('resellers_list', 'signedIn', 'The active resellers the caller may see.', rows(row({ id: int, legal_name: str })), async (req) => {
    const scope = carrierScope(req);
    let qb = activeCompanies(COMPANY_ROLE.RESELLER);
    if (scope !== null) qb = qb.where('id', '=', scope);
    return { data: await qb.execute() };
  });

  // Admins: every company; a carrier: its own and its end-user companies; an end user or support: its own.
  app.get(
    '/visitor/companies_list',
    opts(
      'signedIn',
      'The companies the caller may see.',
      obj({ company_role_id: id }),
      rows(row({ id: int, legal_name: str, company_role_id: int, carrier_id: intN })),
    ),
    async (req) => {
      const { company_role_id } = req.query;
      const u = req.user!;
      let qb = db.selectFrom('companies').select(['id', 'legal_name', 'company_role_id', 'carrier_id']).orderBy('legal_name').orderBy('id');
      if (u.kind === 'carrier') qb = qb.where((eb) => eb.or([eb('id', '=', u.company_id), eb('carrier_id', '=', u.company_id)]));
      else if (u.kind !== 'admin') qb = qb.where('id', '=', u.company_id);
      if (company_role_id) qb = qb.where('company_role_id', '=', company_role_id);
      return { data: await qb.execute() };
    },
  );

  // End-user companies of a carrier (`company_id`); a carrier is always its own, an end user sees its company.
  app.get(
    '/visitor/enduser_list',
    opts(
      'signedIn',
      'The end-user companies of a carrier.',
      obj({ company_id: id }),
      rows(row({ id: int, legal_name: str, carrier_id: intN, carrier_name: str })),
    ),
    async (req) => {
      const { company_id } = req.query;
      const u = req.user!;
      let qb = db
        .selectFrom('companies')
        .select(['id', 'legal_name', 'carrier_id'])
        .where('company_role_id', '=', COMPANY_ROLE.ENDUSER)
        .orderBy('legal_name')
        .orderBy('id');
      if (u.kind === 'admin') {
        if (company_id) qb = qb.where('carrier_id', '=', company_id);
      } else if (u.kind === 'enduser') {
        qb = qb.where('id', '=', u.company_id);
      } else {
        const own = carrierScope(req)!;
        if (company_id && company_id !== own) throw notFound();
        qb = qb.where('carrier_id', '=', own);
      }
      // `carrier_name` is the document's name for the end-user company's name in this list.
      return { data: (await qb.execute()).map((r) => ({ ...r, carrier_name: r.legal_name })) };
    },
  );

  // A carrier's tariff categories; the tenant of a non-admin is its own carrier, whatever company_id says.
  const categoryQuery = obj({ company_id: id, rate_type: { type: 'string', enum: ['STD', 'EXP'] }, zone: { type: 'string', enum: ['NAT', 'INT'] } });
  const categories = async (req: FastifyRequest, q: { company_id?: number; rate_type?: string; zone?: string }) => {
    const scope = carrierScope(req);
    if (scope !== null && q.company_id && q.company_id !== scope) throw notFound();
    let qb = db.selectFrom('categories').select(['id', 'code', 'rate_type', 'zone', 'description', 'company_id']).orderBy('code').orderBy('id');
    const company = scope ?? q.company_id;
    if (company) qb = qb.where('company_id', '=', company);
    if (q.rate_type) qb = qb.where('rate_type', '=', q.rate_type);
    if (q.zone) qb = qb.where('zone', '=', q.zone);
    return { category_list: await qb.execute() };
  };
  const categoryList = row({ category_list: list(row({ id: int, code: str, rate_type: str, zone: str, description: strN, company_id: int })) });
  app.get('/visitor/category_list', opts('signedIn', "A carrier's tariff categories.", categoryQuery, categoryList), (req) => categories(req, req.query));
  app.get('/visitor/category_list_filter', opts('signedIn', "A carrier's tariff categories, filtered.", categoryQuery, categoryList), (req) =>
    categories(req, req.query),
  );

  app.get(
    '/visitor/province_list',
    opts('public', 'The Italian provinces.', obj({ region: text, search: text }), rows(row({ id: int, sigla: str, name: str, region: str, province: str }))),
    async (req) => {
      const q = req.query;
      let qb = db.selectFrom('provinces').select(['id', 'sigla', 'name', 'region']).orderBy('name');
      if (q.region) qb = qb.where(ci('region'), '=', q.region.trim().toLowerCase());
      if (q.search) {
        const s = q.search.trim().toLowerCase();
        qb = qb.where((eb) => eb.or([eb(ci('sigla'), '=', s), eb(ci('name'), 'like', `${s}%`)]));
      }
      // `province` is the sigla, as the documents name the list's item.
      return { data: (await qb.execute()).map((p) => ({ ...p, province: p.sigla })) };
    },
  );

  app.get(
    '/visitor/city_list',
    opts(
      'public',
      'The Italian municipalities.',
      obj({ province: text, search: text, postal_code: text, limit }),
      rows(
        row({
          id: int,
          name: str,
          province: str,
          postal_code: strN,
          istat_code: str,
          city: { ...str, description: 'The name again (the documents name the item `city`)' },
        }),
      ),
    ),
    async (req) => {
      const q = req.query;
      let qb = db.selectFrom('municipalities as m').select(['m.id', 'm.name', 'm.province', 'm.postal_code', 'm.istat_code']).orderBy('m.name').orderBy('m.id');
      if (q.province) qb = qb.where(ci('m.province'), '=', q.province.trim().toLowerCase());
      if (q.search) qb = qb.where(ci('m.name'), 'like', `${q.search.trim().toLowerCase()}%`);
      if (q.postal_code) {
        qb = qb.where('m.id', 'in', db.selectFrom('municipality_postal_codes').select('municipality_id').where('postal_code', '=', q.postal_code.trim()));
      }
      // A whole province at once (at most a few hundred), otherwise the first `limit` matches.
      const rows = await (q.province ? qb.limit(1000) : qb.limit(q.limit ?? 50)).execute();
      return { data: rows.map((r) => ({ ...r, city: r.name })) };
    },
  );

  app.get(
    '/visitor/postal_code_list',
    opts(
      'public',
      'The Italian postal codes and their municipalities.',
      obj({ city: text, province: text, search: text, limit }),
      rows(row({ id: int, postal_code: str, city: str, province: str })),
    ),
    async (req) => {
      const q = req.query;
      let qb = db
        .selectFrom('municipality_postal_codes as p')
        .innerJoin('municipalities as m', 'm.id', 'p.municipality_id')
        .select(['p.id', 'p.postal_code', 'm.name as city', 'm.province'])
        .orderBy('p.postal_code')
        .orderBy('m.name');
      if (q.city) qb = qb.where(ci('m.name'), '=', q.city.trim().toLowerCase());
      if (q.province) qb = qb.where(ci('m.province'), '=', q.province.trim().toLowerCase());
      if (q.search) qb = qb.where('p.postal_code', 'like', `${q.search.trim()}%`);
      return { data: await qb.limit(q.city ? 500 : (q.limit ?? 50)).execute() };
    },
  );

  // Islands: every island once; with city (and province) the island that place is on, if any.
  app.get(
    '/visitor/island_list',
    opts(
      'public',
      'The islands, or the island a place is on.',
      obj({ city: text, province: text }),
      // One row shape for both uses (a client reads it without narrowing a union): with `city`, the island
      // that place is on with the place (city, province); without, every island with its municipalities' count.
      rows(
        row(
          {
            island: str,
            city: { ...str, description: 'With `city` only: the place' },
            province: { ...str, description: 'With `city` only: its province' },
            municipalities: { type: 'integer', minimum: 1, description: 'Without `city` only: how many municipalities the island has' },
          },
          ['city', 'province', 'municipalities'],
        ),
      ),
    ),
    async (req) => {
      const q = req.query;
      if (q.city) {
        let qb = db.selectFrom('island_places').select(['island', 'city', 'province']).where(ci('city'), '=', q.city.trim().toLowerCase());
        if (q.province) qb = qb.where(ci('province'), '=', q.province.trim().toLowerCase());
        return { data: await qb.orderBy('island').execute() };
      }
      const rows = await db
        .selectFrom('island_places')
        .select('island')
        .select(sql<number>`count(*)`.as('municipalities'))
        .groupBy('island')
        .orderBy('island')
        .execute();
      return { data: rows.map((r) => ({ island: r.island, municipalities: Number(r.municipalities) })) };
    },
  );
}
