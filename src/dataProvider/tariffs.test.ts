import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { buildDataProvider } from './index';
import { clearSession, readRole, writeSession } from '../authProvider/session';
import { kindOfRoleName } from '../../model/roles';
import { RESOURCES } from '../../model/registry';
import { TARIFF_TABLES } from '../../model/tariffs';

const calls: Array<{ method: string; path: string; query: string; body: unknown }> = [];
const server = setupServer(
  http.all('*/api/v1/*', async ({ request }) => {
    const url = new URL(request.url);
    const body = request.headers.get('content-type')?.includes('json') ? await request.json() : undefined;
    calls.push({ method: request.method, path: url.pathname.replace('/api/v1', ''), query: url.search, body });
    if (url.pathname.endsWith('/express_island_zones')) {
      return HttpResponse.json({ island_zones: { data: [{ id: 1, island: 'Sicilia' }], current_page: 1, per_page: 15, last_page: 1, total: 1 } });
    }
    return HttpResponse.json({ status: true, message: '6 righe eliminate.' });
  }),
);

const apis = Object.fromEntries(
  RESOURCES.map((r) => [
    r.name,
    {
      paths: r.api,
      listKey: TARIFF_TABLES.find((t) => t.route === r.name)?.listKey,
    },
  ]),
);

describe('data provider: the tariff resources', () => {
  /** The answers' messages the provider hands to its `onAnswer` listener (App.tsx turns them into toasts). */
  const bus: Array<{ message: string }> = [];
  const events = { getKind: () => kindOfRoleName(readRole()), onAnswer: (message: string) => bus.push({ message }) };
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => {
    calls.length = 0;
    bus.length = 0;
    clearSession();
  });
  afterAll(() => {
    server.close();
  });

  it('lists a table from its keyed answer, with the company filter', async () => {
    writeSession('t', 'Admin', false);
    const page = await buildDataProvider(apis, events).getList('express-island-zones', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'ASC' },
      filter: { company_id: 2 },
    });
    expect(page).toEqual({ data: [{ id: 1, island: 'Sicilia' }], total: 1 });
    expect(calls[0].path).toBe('/admin/express_island_zones');
    expect(calls[0].query).toContain('company_id=2');
  });

  it('deletes a whole set: the admin names the carrier (POST), the carrier its own (GET); the answer is a toast', async () => {
    writeSession('t', 'Admin', false);
    await buildDataProvider(apis, events).deleteTariffSet('express-hub-costs', { companyId: 2 });
    writeSession('t', 'Carrier', false);
    await buildDataProvider(apis, events).deleteTariffSet('express-hub-costs', { companyId: 2 });
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/admin/express_hub_costs/destroy', { company_id: 2 }],
      ['GET', '/company/express_hub_costs/destroy', undefined],
    ]);
    expect(bus.map((m) => m.message)).toEqual(['6 righe eliminate.', '6 righe eliminate.']);
  });

  it("deletes a rate sheet and saves a customer category under the caller's namespace", async () => {
    writeSession('t', 'Carrier', false);
    const dp = buildDataProvider(apis, events);
    await dp.deleteRateSheet({ id: 7, companyId: 2 });
    await dp.saveEnduserCategory({ enduserId: 4, field: 'exp_category_id', value: null, companyId: 2 });
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/company/rate_sheet/destroy/7', {}],
      ['POST', '/company/enduser_carrier_categories/store', { enduser_id: 4, exp_category_id: null }],
    ]);
  });
});
