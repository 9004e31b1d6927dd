import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AdminContext } from 'react-admin';
import { ActivitySection } from './ActivitySection';
import { auditMessages } from './messages';
import { componentMessages } from '../messages';
import { buildI18nProvider } from '../../i18n';
import { buildDataProvider } from '../../dataProvider';
import { authProvider } from '../../authProvider';
import { clearSession, readRole, writeSession } from '../../authProvider/session';
import { connectSession } from '../../api/http';
import { resources } from '../../resources';
import { kindOfRoleName } from '../../../model/roles';

/**
 * The "Attività" section against the answer shape of shared contract 3 (msw stands for the server): the
 * request it sends (path by role, resource and id filters, newest first) and how the entries read in Italian.
 */
const calls: URL[] = [];
const entry = {
  id: 41,
  at: '2026-11-24T10:15:00.000Z',
  action: 'update',
  resource: 'companies',
  resource_id: 5,
  user_id: 1,
  user_name: 'Anna Amministratrice',
  user_role_id: 1,
  company_id: 1,
  company_name: 'Portale Trasporti',
  changes: [
    { field: 'legal_name', before: 'Rossi Logistica S.r.l.', after: 'Rossi Logistica S.p.A.' },
    { field: 'address_2', before: null, after: 'Scala B' },
  ],
  ip: '127.0.0.1',
};
const page = (data: unknown[], total = data.length) => ({ data, current_page: 1, per_page: 10, last_page: Math.max(1, Math.ceil(total / 10)), total });

const server = setupServer(
  http.get('*/api/v1/admin/audit_log', ({ request }) => {
    const url = new URL(request.url);
    calls.push(url);
    return HttpResponse.json(url.searchParams.get('resource_id') === '5' ? page([entry], 23) : page([]));
  }),
  http.get('*/api/v1/company/audit_log', ({ request }) => {
    calls.push(new URL(request.url));
    return HttpResponse.json(page([]));
  }),
);

const { provider: i18n } = buildI18nProvider([componentMessages, auditMessages, ...resources.flatMap((r) => (r.messages ? [r.messages] : []))], 'it');
const apis = Object.fromEntries(resources.map((r) => [r.name, r.api]));
connectSession({ token: () => 'tok', onExpired: () => undefined });

function renderSection(props: Parameters<typeof ActivitySection>[0]) {
  const dataProvider = buildDataProvider(apis, { getKind: () => kindOfRoleName(readRole()) });
  return render(
    <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18n}>
      <ActivitySection {...props} />
    </AdminContext>,
  );
}

describe('the Attività section', () => {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    cleanup();
    calls.length = 0;
    clearSession();
  });
  afterAll(() => server.close());

  it('asks the admin path for one record’s entries, newest first, and shows them in Italian', async () => {
    writeSession('tok', 'Admin', false);
    renderSection({ resource: 'companies', id: 5 });
    const section = await screen.findByTestId('activity');
    expect(within(section).getByRole('heading', { name: 'Attività' })).toBeTruthy();
    const changes = await within(section).findByTestId('audit-changes');
    expect(changes.textContent).toContain('Ragione sociale: «Rossi Logistica S.r.l.» → «Rossi Logistica S.p.A.»');
    expect(changes.textContent).toContain('Indirizzo (riga 2): (vuoto) → «Scala B»');
    expect(section.textContent).toContain('Modifica');
    expect(section.textContent).toContain('Anna Amministratrice');
    expect(within(section).getByTestId('audit-role').textContent).toBe('Amministratore');
    // 23 entries, 10 a page: the pager says so.
    expect((await within(section).findByTestId('pager-range')).textContent).toMatch(/1.*10.*23/);
    const q = calls[0].searchParams;
    expect(calls[0].pathname).toBe('/api/v1/admin/audit_log');
    expect([q.get('resource'), q.get('resource_id'), q.get('sort'), q.get('order'), q.get('per_page'), q.get('page')]).toEqual([
      'companies',
      '5',
      'at',
      'desc',
      '10',
      '1',
    ]);
  });

  it('asks a carrier’s own path, with a tariff set’s company, and shows the empty text', async () => {
    writeSession('tok', 'Carrier', false);
    renderSection({ resource: 'express_hub_costs', companyId: 2 });
    expect((await screen.findByTestId('empty')).textContent).toContain('Nessuna attività registrata');
    expect(calls[0].pathname).toBe('/api/v1/company/audit_log');
    expect([calls[0].searchParams.get('resource'), calls[0].searchParams.get('company_id'), calls[0].searchParams.get('resource_id')]).toEqual([
      'express_hub_costs',
      '2',
      null,
    ]);
  });

  it('is not there for the kinds that may not read the log', async () => {
    writeSession('tok', 'Enduser', false);
    const { container } = renderSection({ resource: 'transport_requests', id: 3 });
    await new Promise((r) => setTimeout(r, 50));
    expect(container.querySelector('[data-testid=activity]')).toBeNull();
    expect(calls).toEqual([]);
  });
});
