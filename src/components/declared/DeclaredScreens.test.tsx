import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AdminContext, ListContextProvider, RecordContextProvider, useList } from 'react-admin';
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
import addressBook from '../../../model/resources/address-book';
import { DeclaredBulkActions } from './DeclaredBulkActions';
import { DeclaredList } from './DeclaredList';

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
  http.get('*/api/v1/:ns/address_book/show/:id', ({ params }) =>
    HttpResponse.json({
      data: {
        id: Number(params.id),
        company_id: 9,
        company_name: 'Rossi Logistica S.r.l.',
        name: 'Sede',
        kind: 'pickup',
        country_id: 110,
        country_name: 'Italy',
        created_at: '2026-11-02T09:00:00Z',
      },
    }),
  ),
  http.get('*/api/v1/:ns/address_book/destroy/:id', () =>
    HttpResponse.json({ status: false, message: 'Il luogo è usato da 2 prenotazioni: non può essere eliminato.' }, { status: 409 }),
  ),
  http.get('*/api/v1/admin/address_book', ({ request }) => {
    calls.push(new URL(request.url));
    return HttpResponse.json({
      data: [{ id: 4, company_id: 9, company_name: 'Rossi Logistica S.r.l.', name: 'Sede', kind: 'pickup', country_id: 110, country_name: 'Italy' }],
      current_page: 1,
      per_page: 15,
      last_page: 1,
      total: 1,
    });
  }),
  http.post('*/api/v1/company/address_book/bulk', () =>
    HttpResponse.json({
      status: true,
      message: 'Eliminati 1 di 3.',
      data: {
        deleted: 1,
        results: [
          { id: 4, result: 'deleted' },
          { id: 5, result: 'not_found', message: 'Non trovato.' },
          { id: 6, result: 'conflict', message: 'È usato da 2 prenotazioni.' },
        ],
      },
    }),
  ),
  http.get('*/api/v1/visitor/country_list', () => HttpResponse.json({ data: [{ id: 110, en: 'Italy', it: 'Italia', fr: 'Italie', iso_alpha_2: 'IT' }] })),
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

  it(
    'the show page of a company resource: the company for an admin, the country in Italian; a refused delete says why and stays',
    { timeout: 20_000 },
    async () => {
      writeSession('tok', 'Admin', false);
      inAdmin(<DeclaredShow decl={addressBook} id={4} />);
      const fields = await screen.findByTestId('show-fields');
      const value = (f: string) => fields.querySelector(`[data-field=${f}] dd`)?.textContent;
      expect(value('company_name')).toBe('Rossi Logistica S.r.l.');
      expect(value('kind')).toBe('Ritiro');
      await waitFor(() => expect(value('country_id')).toBe('Italia'));
      fireEvent.click(screen.getByTestId('show-delete'));
      const confirm = await screen.findByRole('dialog');
      expect(confirm.textContent).toContain('Eliminare «Sede»?');
      fireEvent.click(within(confirm).getByRole('button', { name: 'Elimina' }));
      // The server's 409 message as an error toast (react-admin's notification store); the page stays.
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(screen.getByTestId('show-fields')).toBeTruthy();
    },
  );

  it('an end user’s show page: no company, no Attività (the audit log is not theirs)', { timeout: 20_000 }, async () => {
    writeSession('tok', 'Enduser', false);
    inAdmin(<DeclaredShow decl={addressBook} id={4} />);
    const fields = await screen.findByTestId('show-fields');
    expect(fields.querySelector('[data-field=company_name]')).toBeNull();
    expect(screen.queryByTestId('activity')).toBeNull();
    expect(screen.getByTestId('show-delete')).toBeTruthy();
  });

  it('the admin’s list of a company resource: the company column and filter, rows selectable', { timeout: 20_000 }, async () => {
    writeSession('tok', 'Admin', false);
    inAdmin(<DeclaredList decl={addressBook} />);
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(1));
    const head = screen.getAllByRole('row')[0].textContent;
    expect(head).toContain('Azienda');
    expect(head).toContain('Paese');
    const row = screen.getAllByRole('row')[1];
    expect(row.textContent).toContain('Rossi Logistica S.r.l.');
    expect(row.textContent).toContain('Ritiro');
    await waitFor(() => expect(row.textContent).toContain('Italia'));
    expect(within(row).getByRole('checkbox')).toBeTruthy();
    expect(screen.getByTestId('import')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Aggiungi filtro' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Aggiungi filtro' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitemcheckbox')
        .map((m) => m.textContent),
    ).toEqual(['Azienda', 'Tipo', 'Paese']);
  });

  it('a bulk delete that deletes some: the outcome lists the others with the server’s reasons', { timeout: 20_000 }, async () => {
    writeSession('tok', 'Carrier', false);
    function Bulk() {
      const list = useList({ data: [{ id: 4 }, { id: 5 }, { id: 6 }] });
      return (
        <ListContextProvider value={{ ...list, resource: 'address-book', selectedIds: [4, 5, 6] }}>
          <DeclaredBulkActions canDelete />
        </ListContextProvider>
      );
    }
    inAdmin(<Bulk />);
    fireEvent.click(await screen.findByTestId('bulk-delete'));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('Eliminare i 3 elementi selezionati?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Elimina' }));
    const outcome = await screen.findByTestId('bulk-outcome');
    expect(within(outcome).getByTestId('bulk-deleted').textContent).toBe('Eliminato 1 elemento.');
    expect(outcome.textContent).toContain('2 elementi non sono stati eliminati:');
    const kept = within(outcome)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(kept).toEqual(['#5Non trovato (già eliminato o non tuo)Non trovato.', '#6Ancora in usoÈ usato da 2 prenotazioni.']);
  });
});
