import { expect, it } from 'vitest';
import { portalMigrator } from '../../server/db/migrate.js';
import { DEMO, describeEachDb } from './helpers.js';

/**
 * Reference data named per language and the audit log in words (issue 35, items 6 and 11): document types,
 * shipment types, ticket categories, titles and countries answer the caller's language (Accept-Language) in
 * the lists, the lookups and the answers that name them; migration 0025 fills the names of the rows an older
 * database holds; the audit log names coded values and leaves sign-ins out when asked.
 */
describeEachDb('reference data named per language, audit log in words', (p) => {
  let admin = '';
  let enduser = '';
  const db = () => p().db.db as any;
  const get = async (path: string, token: string, lang: string) => {
    const r = await p().api('GET', path, { token, lang });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  it('signs in', async () => {
    admin = await p().login(DEMO.admin);
    enduser = await p().login(DEMO.enduser);
  });

  it('names the document types in the caller’s language: the public lookup, the admin list and its sort', async () => {
    const lookup = async (lang: string) => (await get('/visitor/document_types_list', '', lang)).data.map((d: any) => d.name);
    expect(await lookup('it')).toEqual(expect.arrayContaining(['DDT', 'CMR', 'Fattura commerciale', 'Altro']));
    expect(await lookup('en')).toEqual(expect.arrayContaining(['Delivery note (DDT)', 'CMR consignment note', 'Commercial invoice', 'Other']));
    expect(await lookup('fr')).toEqual(expect.arrayContaining(['Bon de livraison (DDT)', 'Lettre de voiture CMR', 'Facture commerciale', 'Autre']));
    expect(await lookup('en')).not.toContain('Fattura commerciale');

    const list = await get('/admin/document_types?per_page=50&sort=name&order=asc', admin, 'fr');
    const invoice = list.data.find((d: any) => d.name === 'Fattura commerciale');
    expect(invoice).toMatchObject({ it: 'Fattura commerciale', en: 'Commercial invoice', fr: 'Facture commerciale' });
    // sorted by the French names ("Autre", the stored "Altro", first), not by the stored Italian ones
    const french = list.data.map((d: any) => d.fr ?? d.name);
    expect(french).toEqual([...french].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(french[0]).toBe('Autre');
  });

  it('stores and edits a document type’s three names; an empty one reads as the stored name', async () => {
    const made = await p().api('POST', '/admin/document_types/store', {
      token: admin,
      lang: 'en',
      body: { name: 'Bolla doganale T1', it: 'Bolla doganale T1', en: 'T1 transit document', fr: 'Document de transit T1', active: '1' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ en: 'T1 transit document', fr: 'Document de transit T1' });
    const names = async (lang: string) => (await get('/visitor/document_types_list', '', lang)).data.map((d: any) => d.name);
    expect(await names('fr')).toContain('Document de transit T1');
    const edited = await p().api('POST', `/admin/document_types/update/${made.body.data.id}`, {
      token: admin,
      body: { name: 'Bolla doganale T1', it: 'Bolla doganale T1', en: 'T1 transit document', fr: '', active: '1' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await names('fr')).toContain('Bolla doganale T1');
    expect(await names('en')).toContain('T1 transit document');
  });

  it('names the shipment types and the ticket categories in the caller’s language', async () => {
    const types = await get('/admin/shipment_types?per_page=50', admin, 'en');
    expect(types.data.find((t: any) => t.name === 'Pallet')).toMatchObject({ it: 'Pallet', en: 'Pallets', fr: 'Palettes' });
    expect(types.data.find((t: any) => t.name === 'Colli (units)')).toMatchObject({ it: 'Colli', fr: 'Colis' });
    // The transport classes are codes (SILVER, GOLD): no per-language names.
    const classes = await get('/admin/transport_class?per_page=50', admin, 'en');
    expect(Object.keys(classes.data[0])).not.toContain('fr');

    const categories = async (lang: string) => (await get('/visitor/ticket_categories', '', lang)).data.map((c: any) => c.name);
    expect(await categories('it')).toEqual(expect.arrayContaining(['Preventivi e tariffe', 'Fatturazione']));
    expect(await categories('en')).toEqual(expect.arrayContaining(['Quotes and rates', 'Billing', 'Damage or shortage']));
    expect(await categories('fr')).toEqual(expect.arrayContaining(['Devis et tarifs', 'Facturation']));

    // A ticket names its category in the reader's language.
    const billing = (await get('/visitor/ticket_categories', '', 'it')).data.find((c: any) => c.name === 'Fatturazione');
    const opened = await p().api('POST', '/enduser/chats/newTicket', {
      token: enduser,
      body: { ticket_category_id: billing.id, subject: 'Fattura di ottobre', message: 'Manca una riga.' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const tickets = async (lang: string) => (await get('/enduser/chats/getTickets', enduser, lang)).data.find((t: any) => t.id === opened.body.data.id);
    expect((await tickets('en')).category_name).toBe('Billing');
    expect((await tickets('fr')).category_name).toBe('Facturation');
    expect((await tickets('it')).category_name).toBe('Fatturazione');
  });

  it('names the countries in the caller’s language, in that language’s order', async () => {
    const list = async (lang: string) => (await get('/visitor/country_list', '', lang)).data;
    const it_ = await list('it');
    const italy = it_.find((c: any) => c.code_alpha === 'IT');
    expect(italy).toMatchObject({ it: 'Italia', en: 'Italy', fr: 'Italie' });
    const order = (rows: any[], lang: string) => rows.map((c) => (c[lang] ?? c.name).toLowerCase());
    // "Germania" comes among the G of an Italian list, "Allemagne" among the A of a French one.
    for (const lang of ['it', 'fr']) {
      const rows = await list(lang);
      const names = order(rows, lang);
      const de = rows.findIndex((c: any) => c.code_alpha === 'DE');
      expect(names[de]).toBe(lang === 'it' ? 'germania' : 'allemagne');
      expect(names[de - 1] <= names[de] && names[de] <= names[de + 1]).toBe(true);
    }
    // The admin list sorts its name column in the caller's language too.
    const admin_ = await get('/admin/countries?per_page=5&sort=name&order=asc&q=ger', admin, 'fr');
    expect(admin_.data.map((c: any) => c.fr)).toContain('Allemagne');
  });

  it('reads a usual title in the reader’s language, another one as written', async () => {
    const title = async (lang: string) => (await get('/admin/users?per_page=100', admin, lang)).data.find((u: any) => u.email === DEMO.admin).title;
    expect(await title('it')).toBe('Sig.');
    expect(await title('en')).toBe('Mr');
    expect(await title('fr')).toBe('M.');
    const enduserTitle = async (lang: string) => (await get('/admin/users?per_page=100', admin, lang)).data.find((u: any) => u.email === DEMO.enduser).title;
    expect(await enduserTitle('en')).toBe('Ms');
    expect(await enduserTitle('fr')).toBe('Mme');
    await db().updateTable('users').set({ title: 'Cav.' }).where('email', '=', DEMO.enduser).execute();
    expect(await enduserTitle('en')).toBe('Cav.');
    await db().updateTable('users').set({ title: 'Sig.ra' }).where('email', '=', DEMO.enduser).execute();
  });

  it('answers an audit entry’s companies, countries, statuses and categories by name in the caller’s language', async () => {
    const company = await db().selectFrom('companies').select(['id', 'legal_name']).orderBy('id').executeTakeFirstOrThrow();
    const france = await db().selectFrom('countries').select('id').where('code_alpha', '=', 'FR').executeTakeFirstOrThrow();
    await db()
      .insertInto('audit_log')
      .values({
        at: new Date().toISOString(),
        action: 'status',
        resource: 'transport_requests',
        resource_id: 999_001,
        changes: JSON.stringify({
          transport_request_status_id: { before: 1, after: 4 },
          carrier_id: { before: null, after: company.id },
          country_id: { before: null, after: france.id },
          notes: { before: null, after: '2' },
        }),
      })
      .execute();
    const entry = async (lang: string) => (await get('/admin/audit_log?resource_id=999001', admin, lang)).data[0];
    const it_ = await entry('it');
    expect(it_.changes).toEqual([
      { field: 'transport_request_status_id', before: 1, after: 4, before_text: 'Aperta', after_text: 'Rifiutata' },
      { field: 'carrier_id', before: null, after: company.id, after_text: company.legal_name },
      { field: 'country_id', before: null, after: france.id, after_text: 'Francia' },
      // a text is not a reference: no name beside it
      { field: 'notes', before: null, after: '2' },
    ]);
    const en = await entry('en');
    expect(en.changes[0]).toMatchObject({ before_text: 'Open', after_text: 'Refused' });
    expect(en.changes[2].after_text).toBe('France');

    // A carrier reads names of its own tenant only: another company's id stays bare.
    const carrier = await p().login(DEMO.carrier);
    const own = (await db().selectFrom('users').select('company_id').where('email', '=', DEMO.carrier).executeTakeFirstOrThrow()).company_id;
    // a company outside the carrier's tenant (not its own, not one of its end users)
    const other = await db()
      .selectFrom('companies')
      .select(['id', 'legal_name'])
      .where('id', '<>', own)
      .where((eb: any) => eb.or([eb('carrier_id', 'is', null), eb('carrier_id', '<>', own)]))
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('audit_log')
      .values({
        at: new Date().toISOString(),
        action: 'update',
        resource: 'transport_requests',
        resource_id: 999_002,
        tenant_id: own,
        changes: JSON.stringify({ carrier_id: { before: own, after: other.id } }),
      })
      .execute();
    const seen = (await get('/company/audit_log?resource_id=999002', carrier, 'it')).data[0];
    expect(seen.changes[0].before_text).toEqual(expect.any(String));
    expect(seen.changes[0]).not.toHaveProperty('after_text');
    expect(JSON.stringify(seen)).not.toContain(other.legal_name);

    // A real write: the ticket's category by its name.
    const ticket = (await get('/admin/audit_log?resource=tickets&action=create&per_page=1', admin, 'en')).data[0];
    expect(ticket.changes.find((c: any) => c.field === 'ticket_category_id').after_text).toBe('Billing');
  });

  it('leaves the sign-ins out when asked, and keeps them when the filter names them', async () => {
    await p().login(DEMO.carrier);
    const all = await get('/admin/audit_log?per_page=100', admin, 'it');
    expect(all.data.some((e: any) => e.resource === 'auth' && e.action === 'login')).toBe(true);
    const without = await get('/admin/audit_log?per_page=100&sign_ins=false', admin, 'it');
    expect(without.data.length).toBeGreaterThan(0);
    expect(without.data.some((e: any) => e.resource === 'auth')).toBe(false);
    expect(without.total).toBeLessThan(all.total);
    const asked = await get('/admin/audit_log?per_page=100&sign_ins=false&resource=auth', admin, 'it');
    expect(asked.data.some((e: any) => e.action === 'login')).toBe(true);
    const bad = await p().api('GET', '/admin/audit_log?sign_ins=maybe', { token: admin });
    expect(bad.status).toBe(422);
  });

  it('migration 0025 fills the names of the rows an older database holds', async () => {
    const migrator = await portalMigrator(db());
    const down = await migrator.migrateTo('0024_address_book');
    expect(down.error).toBeUndefined();
    // An older database: countries whose names per language were never written, a type an admin added.
    await db().updateTable('countries').set({ it: null, en: null, fr: null }).where('code_alpha', 'in', ['DE', 'CH']).execute();
    await db().insertInto('shipment_types').values({ name: 'Container', created_at: new Date().toISOString() }).execute();
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const row = (table: string, name: string) => db().selectFrom(table).select(['it', 'en', 'fr']).where('name', '=', name).executeTakeFirstOrThrow();
    expect(await row('document_types', 'DDT')).toEqual({ it: 'DDT', en: 'Delivery note (DDT)', fr: 'Bon de livraison (DDT)' });
    expect(await row('shipment_types', 'Pallet')).toEqual({ it: 'Pallet', en: 'Pallets', fr: 'Palettes' });
    expect(await row('ticket_categories', 'Ritiro')).toEqual({ it: 'Ritiro', en: 'Pickup', fr: 'Enlèvement' });
    expect(await row('shipment_types', 'Container')).toEqual({ it: null, en: null, fr: null });
    const swiss = await db().selectFrom('countries').select(['it', 'en', 'fr']).where('code_alpha', '=', 'CH').executeTakeFirstOrThrow();
    expect(swiss).toEqual({ it: 'Svizzera', en: 'Switzerland', fr: 'Suisse' });
    // The answers read them at once: the added type shows its stored name in every language.
    const types = await get('/admin/shipment_types?per_page=50&sort=name', admin, 'fr');
    expect(types.data.map((t: any) => t.fr ?? t.name)).toEqual(expect.arrayContaining(['Palettes', 'Container']));
    expect((await get('/visitor/country_list', '', 'it')).data.find((c: any) => c.code_alpha === 'DE').it).toBe('Germania');
  });
});
