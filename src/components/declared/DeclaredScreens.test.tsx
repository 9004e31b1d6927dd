import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AdminContext, RecordContextProvider } from 'react-admin';
import { DeclaredShow } from './DeclaredShow';
import { ImportCheckPanels } from './DeclaredImport';
import { ReferenceText, YesNoText } from './DeclaredColumns';
import { declaredMessages } from './messages';
import { componentMessages } from '../messages';
import { auditMessages } from '../audit/messages';
import { buildI18nProvider } from '../../i18n';
import { buildDataProvider } from '../../dataProvider';
import { authProvider } from '../../authProvider';
import { clearSession, readRole, writeSession } from '../../authProvider/session';
import { connectSession } from '../../api/http';
import { resources } from '../../resources';
import { kindOfRoleName } from '../../../model/roles';
import { defineFields } from '../../../model/fields';
import currencies from '../../../model/resources/currencies';

/**
 * The generated screens' pieces (issue 34) in Italian, msw standing for the server: the show page of a
 * declared resource (fields in words, its Attività, edit and delete offered as the permissions say), a
 * reference by name, the import check's panels.
 */
const calls: URL[] = [];
const server = setupServer(
  http.get('*/api/v1/admin/currencies/show/:id', ({ request, params }) => {
    calls.push(new URL(request.url));
    return HttpResponse.json({
      data: { id: Number(params.id), name: 'Franco svizzero', code_alpha: 'CHF', symbol: null, active: '1', created_at: '2026-11-02T09:00:00Z' },
    });
  }),
  http.get('*/api/v1/admin/audit_log', ({ request }) => {
    calls.push(new URL(request.url));
    return HttpResponse.json({ data: [], current_page: 1, per_page: 10, last_page: 1, total: 0 });
  }),
);

const { provider: i18n } = buildI18nProvider(
  [componentMessages, declaredMessages, auditMessages, ...resources.flatMap((r) => (r.messages ? [r.messages] : []))],
  'it',
);
const apis = Object.fromEntries(resources.map((r) => [r.name, r.api]));
connectSession({ token: () => 'tok', onExpired: () => undefined });

const inAdmin = (ui: React.ReactNode) =>
  render(
    <AdminContext dataProvider={buildDataProvider(apis, { getKind: () => kindOfRoleName(readRole()) })} authProvider={authProvider} i18nProvider={i18n}>
      {ui}
    </AdminContext>,
  );

describe('the generated screens', () => {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    cleanup();
    calls.length = 0;
    clearSession();
  });
  afterAll(() => server.close());

  it('shows a record’s fields in words with its Attività; edit offered, delete not (no delete permission)', { timeout: 20_000 }, async () => {
    writeSession('tok', 'Admin', false);
    inAdmin(<DeclaredShow decl={currencies} id={2} />);
    const fields = await screen.findByTestId('show-fields');
    const value = (f: string) => fields.querySelector(`[data-field=${f}] dd`)?.textContent;
    expect(value('name')).toBe('Franco svizzero');
    expect(value('code_alpha')).toBe('CHF');
    expect(value('symbol')).toBe('—');
    // A flag in words, not a chip.
    expect(value('active')).toBe('Sì');
    expect(value('created_at')).toBe('02/11/2026');
    expect(within(fields).getByText('Codice')).toBeTruthy();
    expect(within(screen.getByTestId('page-title')).getByText('Franco svizzero')).toBeTruthy();
    const activity = await screen.findByTestId('activity');
    expect(within(activity).getByRole('heading', { name: 'Attività' })).toBeTruthy();
    await waitFor(() => expect(calls.some((u) => u.pathname.endsWith('/admin/audit_log'))).toBe(true));
    const audit = calls.find((u) => u.pathname.endsWith('/admin/audit_log'))!.searchParams;
    expect([audit.get('resource'), audit.get('resource_id')]).toEqual(['currencies', '2']);
    expect(screen.getByTestId('show-edit').textContent).toBe('Modifica');
    expect(screen.queryByTestId('show-delete')).toBeNull();
    expect(screen.getByTestId('back').textContent).toBe('Torna all’elenco');
  });

  it('reads a reference by its name, its id only when the name is missing; yes/no in words', async () => {
    writeSession('tok', 'Admin', false);
    inAdmin(
      <>
        <RecordContextProvider value={{ id: 1, country_id: 110, country_name: 'Italia', active: '0' }}>
          <span data-testid="a">
            <ReferenceText source="country_id" />
          </span>
          <span data-testid="c">
            <YesNoText source="active" />
          </span>
        </RecordContextProvider>
        <RecordContextProvider value={{ id: 2, country_id: 7, country_name: null }}>
          <span data-testid="b">
            <ReferenceText source="country_id" />
          </span>
        </RecordContextProvider>
      </>,
    );
    expect((await screen.findByTestId('a')).textContent).toBe('Italia');
    expect(screen.getByTestId('b').textContent).toBe('#7');
    expect(screen.getByTestId('c').textContent).toBe('No');
  });

  it('reads an import check: the counts, and each changed row’s fields before → after by their labels', async () => {
    writeSession('tok', 'Admin', false);
    const fields = defineFields({ name: { type: 'text' }, code_alpha: { type: 'text' } });
    inAdmin(
      <ImportCheckPanels
        resource="currencies"
        fields={fields}
        check={{
          errors: [],
          summary: { added: 1, changed: 1, unchanged: 4 },
          changes: [
            { row: 2, action: 'add', key: 'Sterlina', fields: { name: { before: null, after: 'Sterlina' }, code_alpha: { before: null, after: 'GBP' } } },
            { row: 5, action: 'change', key: 'CHF', fields: { name: { before: 'Franco', after: 'Franco svizzero' } } },
          ],
        }}
      />,
    );
    expect((await screen.findByTestId('summary-added')).textContent).toBe('1 riga nuova');
    expect(screen.getByTestId('summary-changed').textContent).toBe('1 riga modificata');
    expect(screen.getByTestId('summary-unchanged').textContent).toBe('4 righe invariate');
    expect(screen.getByTestId('check-not-saved').textContent).toContain('Pubblica aggiunge e aggiorna queste righe');
    const rows = within(screen.getByTestId('check-changes-table')).getAllByRole('row').slice(1);
    expect(rows[0].textContent).toContain('Nuova');
    expect(rows[0].textContent).toContain('Nome: Sterlina');
    expect(rows[0].textContent).toContain('Codice: GBP');
    expect(rows[1].textContent).toContain('Modificata');
    expect(rows[1].textContent?.replace(/\s+/g, ' ')).toContain('Nome: prima: Franco → , dopo: Franco svizzero');
  });

  it('has every text in Italian, English and French', () => {
    const keys = (o: object, at = ''): string[] => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${at}${k}.`) : [`${at}${k}`]));
    const italian = keys(declaredMessages.it).sort();
    expect(keys(declaredMessages.en).sort()).toEqual(italian);
    expect(keys(declaredMessages.fr).sort()).toEqual(italian);
  });
});
