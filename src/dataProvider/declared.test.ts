import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { buildDataProvider } from './index';
import { clearSession, readRole, readToken, writeSession } from '../authProvider/session';
import { connectSession } from '../api/http';
import { kindOfRoleName } from '../../model/roles';

/**
 * The generated resources' named calls (issue 34), against the contract's answers (msw stands for the
 * server): the bulk delete with its per-id outcome, the import's check and publish (multipart, dry_run, the
 * admin's company), the template, and the export of the selected rows (`?ids=`).
 */
const calls: Array<{ method: string; path: string; query: URLSearchParams; body: unknown }> = [];
const record = async (request: Request) => {
  const url = new URL(request.url);
  const ct = request.headers.get('content-type') ?? '';
  const body = ct.includes('json') ? await request.json() : ct.includes('multipart') ? await request.formData() : undefined;
  calls.push({ method: request.method, path: url.pathname.replace('/api/v1', ''), query: url.searchParams, body });
};

const checked = {
  outcome: 'checked',
  status: true,
  data: {
    errors: [],
    summary: { added: 1, changed: 1, unchanged: 3 },
    changes: [
      { row: 2, action: 'add', key: 'Magazzino Nord', fields: { name: { before: null, after: 'Magazzino Nord' } } },
      { row: 3, action: 'change', key: 'Sede', fields: { city: { before: 'Milano', after: 'Monza' } } },
    ],
  },
};

const server = setupServer(
  http.post('*/api/v1/company/places/bulk', async ({ request }) => {
    await record(request);
    return HttpResponse.json({
      status: true,
      message: '1 luogo eliminato; 2 non eliminati.',
      data: {
        deleted: 1,
        results: [
          { id: 4, result: 'deleted' },
          { id: 5, result: 'not_found' },
          { id: 6, result: 'conflict', message: 'È usato da 2 prenotazioni.' },
        ],
      },
    });
  }),
  http.post('*/api/v1/:ns/places/import', async ({ request }) => {
    await record(request);
    const form = calls[calls.length - 1].body as FormData;
    if (form.get('dry_run') === '1') return HttpResponse.json(checked);
    return HttpResponse.json({ outcome: 'published', status: true, message: '1 riga aggiunta, 1 modificata', data: { added: 1, changed: 1, unchanged: 3 } });
  }),
  http.get('*/api/v1/company/places/import/template', async ({ request }) => {
    await record(request);
    return new HttpResponse('Nome;Città\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="luoghi.csv"' } });
  }),
  http.get('*/api/v1/company/places/export', async ({ request }) => {
    await record(request);
    return new HttpResponse('x', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="places.csv"' } });
  }),
);

const apis = { places: { paths: { admin: '/admin/places', carrier: '/company/places' } } };
connectSession({ token: readToken, onExpired: () => undefined });

describe('data provider: the generated resources’ bulk, import and selected export', () => {
  const toasts: string[] = [];
  const dp = () => buildDataProvider(apis, { getKind: () => kindOfRoleName(readRole()), onAnswer: (m) => toasts.push(m) });
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    // jsdom has no object URLs: the download's blob link is only counted.
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    calls.length = 0;
    toasts.length = 0;
    clearSession();
  });
  afterAll(() => server.close());

  it('deletes the selection in one POST {api}/bulk and answers each id’s outcome, the summary as the toast', async () => {
    writeSession('t', 'Carrier', false);
    const answer = await dp().bulkDelete('places', [4, '5', 6]);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /company/places/bulk']);
    expect(calls[0].body).toEqual({ action: 'delete', ids: [4, 5, 6] });
    expect(answer.deleted).toBe(1);
    expect(answer.results.filter((r) => r.result !== 'deleted')).toEqual([
      { id: 5, result: 'not_found' },
      { id: 6, result: 'conflict', message: 'È usato da 2 prenotazioni.' },
    ]);
    expect(toasts).toEqual(['1 luogo eliminato; 2 non eliminati.']);
  });

  it('checks a file with dry_run=1 (the admin names the company), then publishes it without, the message as the toast', async () => {
    writeSession('t', 'Admin', false);
    const file = new File(['Nome;Città\nMagazzino Nord;Monza\n'], 'luoghi.csv', { type: 'text/csv' });
    const progress: number[] = [];
    const check = await dp().importCheck('places', { file, companyId: 7, onProgress: (p) => progress.push(p) });
    expect(check).toEqual(checked.data);
    expect(toasts).toEqual([]);
    const published = await dp().importPublish('places', { file, companyId: 7, onProgress: () => undefined });
    expect(published).toEqual({ message: '1 riga aggiunta, 1 modificata', added: 1, changed: 1, unchanged: 3 });
    expect(toasts).toEqual(['1 riga aggiunta, 1 modificata']);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /admin/places/import', 'POST /admin/places/import']);
    const [first, second] = calls.map((c) => c.body as FormData);
    expect([first.get('dry_run'), first.get('company_id')]).toEqual(['1', '7']);
    // (jsdom's XMLHttpRequest, through msw, keeps neither a part's file name nor its bytes: only that it is there.)
    expect(first.has('file')).toBe(true);
    expect([second.get('dry_run'), second.get('company_id')]).toEqual(['0', '7']);
  });

  it('sends no company for a carrier (the server takes its own)', async () => {
    writeSession('t', 'Carrier', false);
    await dp().importCheck('places', { file: new File(['a'], 'a.csv'), onProgress: () => undefined });
    expect(calls[0].path).toBe('/company/places/import');
    expect((calls[0].body as FormData).has('company_id')).toBe(false);
  });

  it('a refused publish is an error carrying the rows’ messages', async () => {
    writeSession('t', 'Carrier', false);
    server.use(
      http.post('*/api/v1/company/places/import', () =>
        HttpResponse.json(
          {
            status: false,
            message: 'Il file contiene errori.',
            errors: { file: ['Riga 3, Città: obbligatorio'] },
            data: { errors: [{ row: 3, column: 'Città', message: 'obbligatorio' }] },
          },
          { status: 422 },
        ),
      ),
    );
    const err: any = await dp()
      .importPublish('places', { file: new File(['a'], 'a.csv'), onProgress: () => undefined })
      .catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.message).toBe('Il file contiene errori.');
    expect(err.body.errors).toEqual({ file: ['Riga 3, Città: obbligatorio'] });
    expect(toasts).toEqual([]);
    server.resetHandlers();
  });

  it('downloads the template and exports the selected rows with ?ids= (and not the list’s filters)', async () => {
    writeSession('t', 'Carrier', false);
    await dp().importTemplate('places', 'csv');
    await dp().exportList('places', { ids: [4, 6], sort: { field: 'name', order: 'ASC' }, format: 'csv' });
    await dp().exportList('places', { filter: { kind: 'pickup' }, format: 'xlsx' });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /company/places/import/template',
      'GET /company/places/export',
      'GET /company/places/export',
    ]);
    expect(calls[0].query.get('format')).toBe('csv');
    expect([calls[1].query.get('ids'), calls[1].query.get('sort'), calls[1].query.get('format')]).toEqual(['4,6', 'name', 'csv']);
    expect([calls[2].query.get('ids'), calls[2].query.get('kind')]).toEqual([null, 'pickup']);
  });
});
