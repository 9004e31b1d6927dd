import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { buildDataProvider, type ProviderEvents } from './index';
import { writeSession, clearSession, readRole, readToken } from '../authProvider/session';
import { kindOfRoleName } from '../../model/roles';
import { connectSession, toBody } from '../api/http';
import { RESOURCES } from '../../model/registry';

const calls: Array<{ method: string; url: URL; body: unknown; headers: Headers }> = [];
const record = async (request: Request) => {
  const ct = request.headers.get('content-type') ?? '';
  const body = ct.includes('json') ? await request.json() : ct.includes('multipart') ? await request.formData() : undefined;
  calls.push({ method: request.method, url: new URL(request.url), body, headers: request.headers });
};

const server = setupServer(
  http.get('*/api/v1/admin/currencies', async ({ request }) => {
    await record(request);
    return HttpResponse.json({
      data: [
        { id: 1, name: 'Euro' },
        { id: 2, name: 'Dollar' },
      ],
      current_page: 1,
      per_page: 2,
      last_page: 4,
      total: 8,
    });
  }),
  http.get('*/api/v1/admin/companies', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ data: [{ id: 5, legal_name: 'Acme' }], meta: { current_page: 1, per_page: 15, last_page: 1, total: 1 } });
  }),
  http.get('*/api/v1/company/companies', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ data: [], meta: { current_page: 1, per_page: 15, last_page: 1, total: 0 } });
  }),
  http.get('*/api/v1/company/transport_requests', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ transportRequests: { data: [{ id: 9 }], current_page: 1, per_page: 15, last_page: 1, total: 1 } });
  }),
  http.get('*/api/v1/admin/currencies/show/:id', async ({ request, params }) => {
    await record(request);
    return HttpResponse.json({ data: { id: Number(params.id), name: 'Euro' } });
  }),
  http.post('*/api/v1/admin/currencies/store', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ status: true, message: 'Created', data: { id: 3, name: 'Pound' } });
  }),
  http.post('*/api/v1/admin/currencies/update/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ message: 'The data you sent is not valid.', errors: { name: ['The name field is required.'] } }, { status: 422 });
  }),
  http.get('*/api/v1/admin/currencies/destroy/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ status: true, message: 'Deleted', data: { id: 2 } });
  }),
  http.get('*/api/v1/admin/users/changeStatus/:id', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ status: true, message: 'Status changed', data: { id: 7, status_id: 0 } });
  }),
  http.post('*/api/v1/admin/companies/store', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ status: false, message: 'Refused for a reason' });
  }),
  http.get('*/api/v1/admin/broken', async ({ request }) => {
    await record(request);
    return new HttpResponse('<html>oops</html>', { status: 500 });
  }),
);

const apis = {
  currencies: { paths: { admin: '/admin/currencies' } },
  companies: { paths: { admin: '/admin/companies', carrier: '/company/companies' } },
  users: { paths: { admin: '/admin/users', carrier: '/company/users' } },
  requests: { paths: { carrier: '/company/transport_requests' }, listKey: 'transportRequests' },
  broken: { paths: { admin: '/admin/broken' } },
};

// What main.tsx does at start-up (authProvider's installSession), with the expiry counted instead of reloading.
let expired = 0;
/** The kind of the stored role, as App.tsx gives it. */
const getKind = () => kindOfRoleName(readRole());
connectSession({
  token: readToken,
  onExpired: () => {
    expired += 1;
  },
});

describe('data provider', () => {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    calls.length = 0;
    clearSession();
  });
  afterAll(() => server.close());

  it('lists with page, per_page, sort, order and filters, reading the flat paged shape', async () => {
    writeSession('tok-123', 'Admin', false);
    const dp = buildDataProvider(apis, { getKind });
    const res = await dp.getList('currencies', { pagination: { page: 2, perPage: 2 }, sort: { field: 'name', order: 'DESC' }, filter: { active: '1' } });
    expect(res).toEqual({
      data: [
        { id: 1, name: 'Euro' },
        { id: 2, name: 'Dollar' },
      ],
      total: 8,
    });
    const q = calls[0].url.searchParams;
    expect([q.get('page'), q.get('per_page'), q.get('sort'), q.get('order'), q.get('active')]).toEqual(['2', '2', 'name', 'desc', '1']);
    expect(calls[0].headers.get('authorization')).toBe('Bearer tok-123');
    expect(calls[0].headers.get('x-api-password')).toBe('change-me');
  });

  it('reads the {data, meta} shape and picks the namespace of the caller kind', async () => {
    writeSession('t', 'Admin', false);
    expect(
      (
        await buildDataProvider(apis, { getKind }).getList('companies', {
          pagination: { page: 1, perPage: 15 },
          sort: { field: 'id', order: 'ASC' },
          filter: {},
        })
      ).total,
    ).toBe(1);
    writeSession('t', 'Carrier Users', false);
    await buildDataProvider(apis, { getKind }).getList('companies', { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/v1/admin/companies', '/api/v1/company/companies']);
  });

  it('reads a keyed paged shape (transportRequests)', async () => {
    writeSession('t', 'Carrier', false);
    const res = await buildDataProvider(apis, { getKind }).getList('requests', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(res).toEqual({ data: [{ id: 9 }], total: 1 });
  });

  it('maps getOne, create, delete and changeStatus onto show, store, destroy and changeStatus', async () => {
    writeSession('t', 'Admin', false);
    const dp = buildDataProvider(apis, { getKind });
    expect((await dp.getOne('currencies', { id: 4 })).data).toEqual({ id: 4, name: 'Euro' });
    expect(await dp.create('currencies', { data: { name: 'Pound' } })).toEqual({ data: { id: 3, name: 'Pound' }, meta: { message: 'Created' } });
    expect(calls[1].body).toEqual({ name: 'Pound' });
    expect((await dp.delete('currencies', { id: 2 })).data).toEqual({ id: 2 });
    expect((await dp.changeStatus('users', { id: 7 })).data).toEqual({ id: 7, status_id: 0 });
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'GET /api/v1/admin/currencies/show/4',
      'POST /api/v1/admin/currencies/store',
      'GET /api/v1/admin/currencies/destroy/2',
      'GET /api/v1/admin/users/changeStatus/7',
    ]);
  });

  it('sends files as multipart with [] on array names', async () => {
    writeSession('t', 'Admin', false);
    const file = new File(['png'], 'logo.png', { type: 'image/png' });
    const data = { legal_name: 'X', site_header_logo: { rawFile: file }, tags: ['a', 'b'], is_inbound: true };
    const body = toBody(data) as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('site_header_logo') as File).name).toBe('logo.png');
    expect(body.get('is_inbound')).toBe('1');
    await buildDataProvider(apis, { getKind })
      .create('companies', { data })
      .catch(() => undefined);
    const form = calls[0].body as FormData;
    expect(calls[0].headers.get('content-type')).toMatch(/^multipart\/form-data/);
    expect(form.get('legal_name')).toBe('X');
    expect(form.getAll('tags[]')).toEqual(['a', 'b']);
    expect(form.has('site_header_logo')).toBe(true);
  });

  it('turns a 422 into an HttpError with the message and field errors', async () => {
    writeSession('t', 'Admin', false);
    const err: any = await buildDataProvider(apis, { getKind })
      .update('currencies', { id: 1, data: { name: '' }, previousData: { id: 1 } })
      .catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.message).toBe('The data you sent is not valid.');
    // Joined per field for react-admin's form (under the input), the lists kept in errorList.
    expect(err.body.errors).toEqual({ name: 'The name field is required.', root: { serverError: 'The data you sent is not valid.' } });
    expect(err.body.errorList).toEqual({ name: ['The name field is required.'] });
  });

  it('turns a success-shaped status:false into an error with its message', async () => {
    writeSession('t', 'Admin', false);
    const err: any = await buildDataProvider(apis, { getKind })
      .create('companies', { data: { legal_name: 'Y' } })
      .catch((e) => e);
    expect(err.message).toBe('Refused for a reason');
    expect(err.body.errors).toEqual({});
  });

  it('falls back to "Internal server error" when the server sends no message', async () => {
    writeSession('t', 'Admin', false);
    const err: any = await buildDataProvider(apis, { getKind })
      .getList('broken', { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'ASC' }, filter: {} })
      .catch((e) => e);
    expect(err.status).toBe(500);
    expect(err.message).toBe('Internal server error');
    expect(err.body.errors).toEqual({});
  });
});

describe('data provider: every verb on the reference data resources', () => {
  const refApis = Object.fromEntries(RESOURCES.map((r) => [r.name, { paths: r.api }]));
  const seen: string[] = [];
  // What App.tsx wires to the toasts: a write's message, each field message.
  const bus: Array<{ type: string; message: string }> = [];
  const events: ProviderEvents = {
    getKind,
    onAnswer: (message) => bus.push({ type: 'success', message }),
    onFieldErrors: (errors) =>
      Object.values(errors)
        .flat()
        .forEach((message) => bus.push({ type: 'error', message })),
  };
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    seen.length = 0;
    bus.length = 0;
    server.resetHandlers();
    clearSession();
  });
  afterAll(() => server.close());
  const handle = () =>
    server.use(
      http.get('*/api/v1/admin/:table', ({ request, params }) => {
        const u = new URL(request.url);
        seen.push(`GET ${u.pathname}${u.search}`);
        return HttpResponse.json({ data: [{ id: 1, name: String(params.table) }], current_page: 1, per_page: 15, last_page: 1, total: 1 });
      }),
      http.get('*/api/v1/admin/:table/show/:id', ({ request, params }) => {
        seen.push(`GET ${new URL(request.url).pathname}`);
        return HttpResponse.json({ status: true, data: { id: Number(params.id), name: `row ${params.id}` } });
      }),
      http.post('*/api/v1/admin/:table/store', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        seen.push(`POST ${new URL(request.url).pathname} ${JSON.stringify(body)}`);
        return HttpResponse.json({ status: true, message: 'Valuta creata con successo', data: { id: 77, ...body } });
      }),
      http.post('*/api/v1/admin/:table/update/:id', async ({ request, params }) => {
        const body = (await request.json()) as Record<string, unknown>;
        seen.push(`POST ${new URL(request.url).pathname} ${JSON.stringify(body)}`);
        if (body.code_alpha === 'EUR') {
          return HttpResponse.json(
            { message: 'I dati inviati non sono validi.', errors: { code_alpha: ['Il valore di codice è già in uso.'] } },
            { status: 422 },
          );
        }
        return HttpResponse.json({ status: true, message: 'Aggiornato', data: { id: Number(params.id), ...body } });
      }),
      http.get('*/api/v1/admin/:table/destroy/:id', ({ request, params }) => {
        seen.push(`GET ${new URL(request.url).pathname}`);
        return HttpResponse.json({ status: true, message: 'Eliminato', data: { id: Number(params.id) } });
      }),
    );

  it('maps each resource onto its admin path', async () => {
    handle();
    writeSession('t', 'Admin', false);
    const dp = buildDataProvider(refApis, events);
    for (const name of ['countries', 'currencies', 'document-types', 'shipment-types', 'transport-classes']) {
      await dp.getList(name, { pagination: { page: 3, perPage: 10 }, sort: { field: 'name', order: 'ASC' }, filter: { q: 'eu' } });
    }
    expect(seen).toEqual([
      'GET /api/v1/admin/countries?page=3&per_page=10&sort=name&order=asc&q=eu',
      'GET /api/v1/admin/currencies?page=3&per_page=10&sort=name&order=asc&q=eu',
      'GET /api/v1/admin/document_types?page=3&per_page=10&sort=name&order=asc&q=eu',
      'GET /api/v1/admin/shipment_types?page=3&per_page=10&sort=name&order=asc&q=eu',
      'GET /api/v1/admin/transport_class?page=3&per_page=10&sort=name&order=asc&q=eu',
    ]);
  });

  it('getOne, getMany, getManyReference, create, update, updateMany, delete, deleteMany', async () => {
    handle();
    writeSession('t', 'Admin Users', false);
    const dp = buildDataProvider(refApis, events);
    expect((await dp.getOne('currencies', { id: 5 })).data).toEqual({ id: 5, name: 'row 5' });
    expect((await dp.getMany('currencies', { ids: [1, 2] })).data).toEqual([
      { id: 1, name: 'row 1' },
      { id: 2, name: 'row 2' },
    ]);
    expect(
      (
        await dp.getManyReference('countries', {
          target: 'currency_id',
          id: 9,
          pagination: { page: 1, perPage: 5 },
          sort: { field: 'id', order: 'DESC' },
          filter: {},
        })
      ).total,
    ).toBe(1);
    const created = await dp.create('currencies', { data: { name: 'Lira', code_alpha: 'LPX' } });
    expect(created).toEqual({ data: { id: 77, name: 'Lira', code_alpha: 'LPX' }, meta: { message: 'Valuta creata con successo' } });
    const updated = await dp.update('currencies', { id: 77, data: { id: 77, name: 'Lira 2', code_alpha: 'LPX' }, previousData: { id: 77 } });
    expect(updated.data).toEqual({ id: 77, name: 'Lira 2', code_alpha: 'LPX' });
    expect((await dp.updateMany('currencies', { ids: [1, 2], data: { active: '1' } })).data).toEqual([1, 2]);
    expect((await dp.delete('document-types', { id: 3 })).data).toEqual({ id: 3 });
    expect((await dp.deleteMany('document-types', { ids: [4, 5] })).data).toEqual([4, 5]);
    expect(seen).toEqual([
      'GET /api/v1/admin/currencies/show/5',
      'GET /api/v1/admin/currencies/show/1',
      'GET /api/v1/admin/currencies/show/2',
      'GET /api/v1/admin/countries?page=1&per_page=5&sort=id&order=desc&currency_id=9',
      'POST /api/v1/admin/currencies/store {"name":"Lira","code_alpha":"LPX"}',
      'POST /api/v1/admin/currencies/update/77 {"name":"Lira 2","code_alpha":"LPX"}',
      'POST /api/v1/admin/currencies/update/1 {"active":"1"}',
      'POST /api/v1/admin/currencies/update/2 {"active":"1"}',
      'GET /api/v1/admin/document_types/destroy/3',
      'GET /api/v1/admin/document_types/destroy/4',
      'GET /api/v1/admin/document_types/destroy/5',
    ]);
    // Every write's message went to onAnswer (the toasts).
    expect(bus.map((m) => `${m.type}: ${m.message}`)).toEqual([
      'success: Valuta creata con successo',
      'success: Aggiornato',
      'success: Aggiornato',
      'success: Aggiornato',
      'success: Eliminato',
      'success: Eliminato',
      'success: Eliminato',
    ]);
  });

  it('a 422 on a write: one toast per field message, the form’s errors and the lists', async () => {
    handle();
    writeSession('t', 'Admin', false);
    const err: any = await buildDataProvider(refApis, events)
      .update('currencies', { id: 1, data: { code_alpha: 'EUR' }, previousData: { id: 1 } })
      .catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.body.errors).toEqual({ code_alpha: 'Il valore di codice è già in uso.', root: { serverError: 'I dati inviati non sono validi.' } });
    expect(err.body.errorList).toEqual({ code_alpha: ['Il valore di codice è già in uso.'] });
    expect(bus).toEqual([{ type: 'error', message: 'Il valore di codice è già in uso.' }]);
    // A form that shows each field's message at its input (meta fieldErrorsShown, issue 35): no toast repeats it.
    bus.length = 0;
    const quiet: any = await buildDataProvider(refApis, events)
      .update('currencies', { id: 1, data: { code_alpha: 'EUR' }, previousData: { id: 1 }, meta: { fieldErrorsShown: true } })
      .catch((e) => e);
    expect(quiet.body.errors.code_alpha).toBe('Il valore di codice è già in uso.');
    expect(bus).toEqual([]);
  });
});

describe('data provider: named methods', () => {
  const seen: Array<{ line: string; auth: string | null }> = [];
  const bus: string[] = [];
  const dp = buildDataProvider({}, { onAnswer: (m) => bus.push(m), onFieldErrors: () => bus.push('fields'), getKind: () => 'carrier' });
  const note = async (request: Request) => {
    const u = new URL(request.url);
    const ct = request.headers.get('content-type') ?? '';
    const body = request.method === 'POST' && ct.includes('json') ? ` ${JSON.stringify(await request.json())}` : '';
    seen.push({ line: `${request.method} ${u.pathname}${u.search}${body}`, auth: request.headers.get('authorization') });
  };
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    seen.length = 0;
    bus.length = 0;
    expired = 0;
    server.resetHandlers();
    clearSession();
  });
  afterAll(() => server.close());

  it('request: show, status change (a refusal is thrown with its message), statistics, download', async () => {
    server.use(
      http.get('*/api/v1/company/transport_requests/show/:id', async ({ request, params }) => {
        await note(request);
        return HttpResponse.json({ data: { id: Number(params.id) } });
      }),
      http.post('*/api/v1/company/transport_requests/updateTransportRequestStatus', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ status: false, message: 'Il prezzo è cambiato' });
      }),
      http.get('*/api/v1/enduser/statistics', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ data: { open_requests: 2 } });
      }),
      http.get('*/api/v1/company/transport_requests/download/:id', async ({ request }) => {
        await note(request);
        return new HttpResponse('PDF', { headers: { 'content-type': 'application/pdf' } });
      }),
    );
    writeSession('tok', 'Carrier', false);
    expect(await dp.showRequest('carrier', 12)).toEqual({ id: 12 });
    const err: any = await dp.changeRequestStatus(12, 3).catch((e) => e);
    expect(err.message).toBe('Il prezzo è cambiato');
    expect((await dp.statistics('enduser')).open_requests).toBe(2);
    const blob = await dp.download('/company/transport_requests/download/5');
    expect(await blob.text()).toBe('PDF');
    expect(seen.map((s) => s.line)).toEqual([
      'GET /api/v1/company/transport_requests/show/12',
      'POST /api/v1/company/transport_requests/updateTransportRequestStatus {"id":12,"transport_request_status_id":3}',
      'GET /api/v1/enduser/statistics',
      'GET /api/v1/company/transport_requests/download/5',
    ]);
    expect(seen.every((s) => s.auth === 'Bearer tok')).toBe(true);
    // Named methods announce nothing: the screens show their own toasts.
    expect(bus).toEqual([]);
  });

  it('chat: an end user reads by query, a carrier by body; a message is posted on its side', async () => {
    server.use(
      http.get('*/api/v1/enduser/chats/getChatMessages', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ data: [], has_more: false, read_up_to: 0 });
      }),
      http.post('*/api/v1/company/chats/getChatMessages', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ data: [], has_more: false, read_up_to: 0 });
      }),
      http.post('*/api/v1/company/chats/sendChatMessage', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ status: true, message: 'Inviato', data: { id: 1 } });
      }),
    );
    writeSession('tok', 'Carrier', false);
    await dp.chatMessages('enduser', { chat_id: 4, after: 10 });
    await dp.chatMessages('carrier', { chat_id: 4, before: 9 });
    expect((await dp.sendChatMessage('carrier', 4, 'Ciao')).message).toBe('Inviato');
    expect(seen.map((s) => s.line)).toEqual([
      'GET /api/v1/enduser/chats/getChatMessages?chat_id=4&after=10',
      'POST /api/v1/company/chats/getChatMessages {"chat_id":4,"before":9}',
      'POST /api/v1/company/chats/sendChatMessage {"chat_id":4,"message":"Ciao"}',
    ]);
  });

  it('a visitor quote travels without the bearer; lookups carry their filters', async () => {
    server.use(
      http.post('*/api/v1/visitor/costRequest', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ status: true, data: { zone: 'A' } });
      }),
      http.get('*/api/v1/visitor/companies_list', async ({ request }) => {
        await note(request);
        return HttpResponse.json({ data: [{ id: 2, legal_name: 'Vettore' }] });
      }),
    );
    writeSession('tok', 'Carrier', false);
    expect(await dp.costRequest<{ status: boolean }>({ service: 'standard' }, { anonymous: true })).toEqual({ status: true, data: { zone: 'A' } });
    await dp.costRequest({ service: 'standard' });
    expect(await dp.companies(4)).toEqual([{ id: 2, legal_name: 'Vettore' }]);
    await dp.companies();
    expect(seen).toEqual([
      { line: 'POST /api/v1/visitor/costRequest {"service":"standard"}', auth: null },
      { line: 'POST /api/v1/visitor/costRequest {"service":"standard"}', auth: 'Bearer tok' },
      { line: 'GET /api/v1/visitor/companies_list?company_role_id=4', auth: 'Bearer tok' },
      { line: 'GET /api/v1/visitor/companies_list', auth: 'Bearer tok' },
    ]);
  });

  it('a 401 on a signed-in call goes to the session handler registered at start-up', async () => {
    server.use(http.get('*/api/v1/company/statistics', () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })));
    writeSession('tok', 'Carrier', false);
    const err: any = await dp.statistics('carrier').catch((e) => e);
    expect(err.status).toBe(401);
    expect(expired).toBe(1);
  });
});
