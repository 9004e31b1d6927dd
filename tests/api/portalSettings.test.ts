import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, DEMO } from './helpers.js';
import { listStore } from './fileHelpers.js';
import { COMPANY_ROLE, makeCompany } from './pricingFixtures.js';

const XLSX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]);

function multipart(fields: Record<string, string | { filename: string; data: Buffer }>) {
  const boundary = '----portal' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [name, v] of Object.entries(fields)) {
    if (typeof v === 'string') {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
    } else {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${v.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        v.data,
        Buffer.from('\r\n'),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The admin's portal settings and the public settings lookup (server.md §9). */
describeEachDb('portal settings', (p) => {
  let admin: string;
  let carrier: string;
  let carrierId: number;
  let endUserId: number;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
    carrierId = await makeCompany(p().db.db, 'Vettore Visitatori', COMPANY_ROLE.CARRIER);
    endUserId = await makeCompany(p().db.db, 'Un Cliente', COMPANY_ROLE.ENDUSER, { carrier_id: carrierId });
  });

  it('lets an admin choose the visitor carrier, and answers it publicly', async () => {
    const r = await p().api('POST', '/admin/settings/update', { token: admin, body: { visitor_company_id: carrierId } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: true,
      message: 'Impostazioni salvate',
      data: { visitor_company_id: carrierId, visitor_company: { id: carrierId, legal_name: 'Vettore Visitatori' } },
    });
    const pub = await p().api('GET', '/visitor/settings');
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({ visitor_company_id: carrierId, cs_express_hub_costs: null, standard_rate_sheet: null });
  });

  it('refuses a company that is not an active carrier, and changes nothing', async () => {
    const r = await p().api('POST', '/admin/settings/update', { token: admin, body: { visitor_company_id: endUserId }, lang: 'en' });
    expect(r.status).toBe(422);
    expect(r.body.errors.visitor_company_id).toEqual(['Choose an active carrier company.']);
    expect((await p().api('POST', '/admin/settings/update', { token: admin, body: { visitor_company_id: 999999 } })).status).toBe(422);
    expect((await p().api('GET', '/admin/settings', { token: admin })).body.data.visitor_company_id).toBe(carrierId);
  });

  it('is for admins only', async () => {
    expect((await p().api('GET', '/admin/settings', { token: carrier })).status).toBe(403);
    expect((await p().api('POST', '/admin/settings/update', { token: carrier, body: { visitor_company_id: carrierId } })).status).toBe(403);
    expect((await p().api('GET', '/admin/settings')).status).toBe(401);
  });

  it('stores a template file, serves it as an attachment, replaces and removes it', async () => {
    const up = multipart({ cs_express_hub_costs: { filename: 'hub costs.xlsx', data: XLSX } });
    const r = await p().app.inject({
      method: 'POST',
      url: '/api/v1/admin/settings/update',
      headers: { 'x-api-password': p().config.apiPassword, authorization: `Bearer ${admin}`, ...up.headers },
      payload: up.payload,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.templates.cs_express_hub_costs).toEqual({ name: 'hub costs.xlsx', url: '/visitor/templates/cs_express_hub_costs' });
    expect(r.json().data.visitor_company_id).toBe(carrierId); // untouched when not sent
    const pub = await p().api('GET', '/visitor/settings');
    expect(pub.body.data.cs_express_hub_costs).toBe('/visitor/templates/cs_express_hub_costs');
    const dl = await p().app.inject({
      method: 'GET',
      url: '/api/v1/visitor/templates/cs_express_hub_costs',
      headers: { 'x-api-password': p().config.apiPassword },
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="hub costs.xlsx"/);
    expect(dl.rawPayload.equals(XLSX)).toBe(true);

    const notSheet = multipart({ cs_express_hub_costs: { filename: 'evil.xlsx', data: Buffer.from('<svg/>') } });
    const bad = await p().app.inject({
      method: 'POST',
      url: '/api/v1/admin/settings/update',
      headers: { 'x-api-password': p().config.apiPassword, authorization: `Bearer ${admin}`, 'accept-language': 'en', ...notSheet.headers },
      payload: notSheet.payload,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.cs_express_hub_costs).toEqual(['The template must be an .xls or .xlsx spreadsheet.']);
    expect(
      (
        await p().app.inject({ method: 'GET', url: '/api/v1/visitor/templates/cs_express_hub_costs', headers: { 'x-api-password': p().config.apiPassword } })
      ).rawPayload.equals(XLSX),
    ).toBe(true);

    const rm = await p().api('POST', '/admin/settings/update', { token: admin, body: { remove_templates: ['cs_express_hub_costs'] } });
    expect(rm.body.data.templates.cs_express_hub_costs).toBeNull();
    const gone = await p().api('GET', '/visitor/templates/cs_express_hub_costs');
    expect(gone.status).toBe(404);
    expect((await listStore(p().app.files)).filter((f) => f.area === 'templates')).toEqual([]);
    expect((await p().api('GET', '/visitor/templates/not_a_key')).status).toBe(422);
  });

  it('clears the visitor carrier with an empty form value', async () => {
    const form = multipart({ visitor_company_id: '' });
    const r = await p().app.inject({
      method: 'POST',
      url: '/api/v1/admin/settings/update',
      headers: { 'x-api-password': p().config.apiPassword, authorization: `Bearer ${admin}`, ...form.headers },
      payload: form.payload,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.visitor_company_id).toBeNull();
    expect((await p().api('GET', '/visitor/settings')).body.data.visitor_company_id).toBeNull();
    await p().api('POST', '/admin/settings/update', { token: admin, body: { visitor_company_id: carrierId } });
  });

  it('answers a trivial ping', async () => {
    const r = await p().api('GET', '/visitor/ping');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(true);
  });
});

describeEachDb('demo visitor carrier', (p) => {
  it('the demo set prices visitors with the demo carrier', async () => {
    const id = (await p().db.db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow()).id;
    expect((await p().api('GET', '/visitor/settings')).body.data.visitor_company_id).toBe(id);
  });
});
