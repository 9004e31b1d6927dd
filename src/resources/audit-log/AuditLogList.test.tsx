import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AdminContext } from 'react-admin';
import { AuditLogList } from './AuditLogList';
import { componentMessages } from '../../components/messages';
import { buildI18nProvider } from '../../i18n';
import { buildDataProvider } from '../../dataProvider';
import { authProvider } from '../../authProvider';
import { clearSession, readRole, writeSession } from '../../authProvider/session';
import { connectSession } from '../../api/http';
import { resources } from '..';
import { kindOfRoleName } from '../../../model/roles';

/** The list screen against the contract's answer (msw for the server): the columns in words, the id filter's query. */
const calls: URL[] = [];
const entries = [
  {
    id: 2,
    at: '2026-11-24T10:15:00.000Z',
    action: 'update',
    resource: 'companies',
    resource_id: 5,
    user_id: 1,
    user_name: 'Anna Amministratrice',
    user_role_id: 1,
    company_id: 1,
    company_name: 'Portale Trasporti',
    changes: [{ field: 'legal_name', before: 'Rossi Logistica S.r.l.', after: 'Rossi Logistica S.p.A.' }],
    ip: '127.0.0.1',
  },
  {
    id: 1,
    at: '2026-11-24T09:00:00.000Z',
    action: 'login_failed',
    resource: 'auth',
    resource_id: null,
    user_id: null,
    user_name: null,
    user_role_id: null,
    company_id: null,
    company_name: null,
    changes: [],
    ip: '10.0.0.9',
  },
];
const page = (data: unknown[]) => ({ data, current_page: 1, per_page: 25, last_page: 1, total: data.length });
const server = setupServer(
  http.get('*/api/v1/admin/audit_log', ({ request }) => {
    const url = new URL(request.url);
    calls.push(url);
    const id = url.searchParams.get('resource_id');
    return HttpResponse.json(page(id ? entries.filter((e) => String(e.resource_id) === id) : entries));
  }),
  http.get('*/api/v1/admin/users', () => HttpResponse.json({ data: [], meta: { current_page: 1, per_page: 25, last_page: 1, total: 0 } })),
  http.get('*/api/v1/admin/companies', () => HttpResponse.json({ data: [], meta: { current_page: 1, per_page: 25, last_page: 1, total: 0 } })),
);

const { provider: i18n } = buildI18nProvider([componentMessages, ...resources.flatMap((r) => (r.messages ? [r.messages] : []))], 'it');
const apis = Object.fromEntries(resources.map((r) => [r.name, r.api]));
connectSession({ token: () => 'tok', onExpired: () => undefined });

describe('the audit log list', () => {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    cleanup();
    calls.length = 0;
    clearSession();
  });
  afterAll(() => server.close());

  it('shows each entry in Italian, links the company, and filters by id', { timeout: 20_000 }, async () => {
    writeSession('tok', 'Admin', false);
    const dataProvider = buildDataProvider(apis, { getKind: () => kindOfRoleName(readRole()) });
    render(
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18n}>
        <AuditLogList />
      </AdminContext>,
    );
    expect((await screen.findByTestId('page-title', {}, { timeout: 8000 })).textContent).toBe('Registro attività');
    // The first render loads the screen's code and its lookups: a slower start than the default second.
    const table = await screen.findByTestId('audit-table', {}, { timeout: 8000 });
    await waitFor(() => expect(within(table).getAllByRole('row').length).toBe(3));
    const [update, failed] = within(table).getAllByRole('row').slice(1);
    expect(update.textContent).toContain('Modifica');
    expect(update.textContent).toContain('Aziende');
    expect(update.textContent).toContain('Portale Trasporti');
    expect(update.textContent).toContain('Ragione sociale: «Rossi Logistica S.r.l.» → «Rossi Logistica S.p.A.»');
    expect(within(update).getByTestId('audit-link').getAttribute('href')).toMatch(/\/companies\/5$/);
    expect(failed.textContent).toContain('Accesso non riuscito');
    expect(within(failed).queryByTestId('audit-link')).toBeNull();
    // Column headers from the declaration's labels.
    for (const h of ['Quando', 'Chi', 'Azienda', 'Azione', 'Risorsa', 'ID risorsa', 'Modifiche'])
      expect(within(table).getByRole('columnheader', { name: h })).toBeTruthy();
    expect(calls[0].pathname).toBe('/api/v1/admin/audit_log');
    expect([calls[0].searchParams.get('sort'), calls[0].searchParams.get('order'), calls[0].searchParams.get('per_page')]).toEqual(['at', 'desc', '25']);
    // Sign-ins are left out until the switch shows them (issue 35).
    expect(calls[0].searchParams.get('sign_ins')).toBe('false');
    expect((screen.getByLabelText('Mostra gli accessi') as HTMLInputElement).checked).toBe(false);

    fireEvent.change(screen.getByLabelText('ID risorsa'), { target: { value: '5' } });
    await waitFor(() => expect(calls.some((c) => c.searchParams.get('resource_id') === '5')).toBe(true));
    await waitFor(() => expect(within(screen.getByTestId('audit-table')).getAllByRole('row').length).toBe(2));
  });
});
