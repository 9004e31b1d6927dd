import type { FastifyInstance } from 'fastify';
import { COMPANY_ROLE } from '../../../src/schema/roles.js';

const lookupSchema = { tags: ['visitor'] } as const;

/**
 * Public lookups the account screens pick from (accounts document §7 "Visitor lookups"). Written here
 * by the accounts work because the access-request form and the settings need them; the reference-data
 * work owns the other lookups. Answers `{status, data: [...]}`, items carrying `id` and `en` as the
 * document gives, plus the name in the caller's language.
 */
export default async function lookupRoutes(app: FastifyInstance) {
  app.get('/visitor/country_list', { config: { policy: 'public' }, schema: lookupSchema }, async (req) => {
    const rows = await app.db.selectFrom('countries').select(['id', 'en', 'it', 'fr', 'name', 'iso_alpha_2'])
      .where('active', '=', '1').execute();
    const data = rows.map((r) => ({ id: r.id, en: r.en ?? r.name, name: r[req.lang] ?? r.en ?? r.name, iso_alpha_2: r.iso_alpha_2 }))
      .sort((a, b) => a.name.localeCompare(b.name, req.lang));
    return { status: true, data };
  });

  app.get('/visitor/languages_list', { config: { policy: 'public' }, schema: lookupSchema }, async () => {
    const data = await app.db.selectFrom('languages').select(['id', 'en', 'code', 'native']).orderBy('id').execute();
    return { status: true, data };
  });

  // Public (server.md §2): an invitation link names a carrier, and the form shows its name.
  for (const [path, role] of [['/visitor/carriers_list', COMPANY_ROLE.CARRIER], ['/visitor/resellers_list', COMPANY_ROLE.RESELLER]] as const) {
    app.get(path, { config: { policy: 'public' }, schema: lookupSchema }, async () => {
      const data = await app.db.selectFrom('companies').select(['id', 'legal_name'])
        .where('company_role_id', '=', role).where('status_id', '=', 1).orderBy('legal_name').execute();
      return { status: true, data };
    });
  }
}
