import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { tariffTable } from '../../../model/tariffs';
import type { TariffCheck } from '../../dataProvider/tariffs';
import { buildI18nProvider, type AreaMessages } from '../../i18n';
import { ChangesTable, CheckSummary, ImpactPanel, formatPercent } from './CheckPanels';
import { CheckErrors, bareMessage } from '../../components/upload/CheckErrors';
import { checkMessages } from './checkMessages';
import { tariffMessages } from './messages';

afterEach(cleanup);

const hubCosts = tariffTable('express_hub_costs')!;

/** A check as the server answers it (docs/tariff-checks.md), with the impact contract of issue 20 item 2. */
const answer: TariffCheck = {
  dry_run: true,
  errors: [],
  summary: { added: 1, changed: 1, removed: 1, unchanged: 1234 },
  changes: [
    { key: { code: 'HUBMI' }, before: { code: 'HUBMI', silver: 5, gold: 9 }, after: { code: 'HUBMI', silver: 5.5, gold: 9 } },
    { key: { code: 'HUBTO' }, before: null, after: { code: 'HUBTO', silver: 4, gold: 8 } },
    { key: { code: 'HUBNA' }, before: { code: 'HUBNA', silver: 7.2, gold: 12.5 }, after: null },
  ],
  impact: {
    considered: 1520,
    repriced: 40,
    unchanged: 1470,
    not_priceable: 10,
    median_change_percent: 2.5,
    max_increase_percent: 12.34,
    max_decrease_percent: -3,
    requests: [
      { id: 7, code: 'TR-0007', created_on: '2026-11-02T09:30:00.000Z', before: 1234.5, after: 1386.83, change_percent: 12.34 },
      { id: 9, code: 'TR-0009', created_on: '2026-11-20T16:00:00.000Z', before: 80, after: 77.6, change_percent: -3 },
    ],
  },
};

function renderIn(ui: React.ReactElement, locale = 'it') {
  const { provider } = buildI18nProvider([tariffMessages as AreaMessages, checkMessages as AreaMessages], locale);
  return render(<AdminContext i18nProvider={provider}>{ui}</AdminContext>);
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((r) =>
      within(r)
        .queryAllByRole('cell')
        .map((c) => c.textContent),
    )
    .filter((r) => r.length);

// The first render pays for loading MUI and react-admin: on a shared, loaded machine that is more than 5 s.
describe('the check panels of an upload', { timeout: 20_000 }, () => {
  it('changes: key column first, before → after on the changed cell only (struck and underlined, not only coloured)', () => {
    renderIn(<ChangesTable spec={hubCosts} check={answer} />);
    const table = screen.getByTestId('check-changes-table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Cambio', 'Codice', 'Silver', 'Gold']);
    // The visually hidden "prima:" / "dopo:" words are part of the cell's text for a screen reader.
    expect(rowsOf(table)).toEqual([
      ['Modificata', 'HUBMI', 'prima: 5,00\u00a0€ → , dopo: 5,50\u00a0€', '9,00\u00a0€'],
      ['Nuova', 'HUBTO', '4,00\u00a0€', '8,00\u00a0€'],
      ['Tolta', 'HUBNA', '7,20\u00a0€', '12,50\u00a0€'],
    ]);
    const changed = table.querySelectorAll('[data-changed="true"]');
    expect(changed).toHaveLength(1);
    expect(changed[0].querySelector('del')?.textContent).toBe('5,00\u00a0€');
    expect(changed[0].querySelector('ins')?.textContent).toBe('5,50\u00a0€');
    // A removed row's values are struck through.
    expect(table.querySelectorAll('tr[data-kind="removed"] del')).toHaveLength(3);
  });

  it('says when only the first changes are listed', () => {
    renderIn(<ChangesTable spec={hubCosts} check={{ ...answer, summary: { added: 150, changed: 100, removed: 0, unchanged: 0 } }} />);
    expect(screen.getByTestId('check-changes')).toHaveTextContent('Sono elencate le prime 3 di 250 righe cambiate.');
  });

  it('summary: the four counts in words, Italian grouping, and what Pubblica and Annulla do', () => {
    renderIn(<CheckSummary summary={answer.summary} />);
    expect(screen.getByTestId('summary-added')).toHaveTextContent('1 riga nuova');
    expect(screen.getByTestId('summary-changed')).toHaveTextContent('1 riga modificata');
    expect(screen.getByTestId('summary-removed')).toHaveTextContent('1 riga tolta');
    expect(screen.getByTestId('summary-unchanged')).toHaveTextContent('1.234 righe invariate');
    expect(screen.getByTestId('check-not-saved')).toHaveTextContent('Non è stato ancora salvato nulla');
  });

  it('summary of a file that changes nothing: says so (a table and a rate sheet each their way)', () => {
    const same = { added: 0, changed: 0, removed: 0, unchanged: 6 };
    renderIn(<CheckSummary summary={same} />);
    expect(screen.getByTestId('check-no-change')).toHaveTextContent('Il file è uguale ai dati salvati: pubblicarlo non cambia nessun prezzo.');
    cleanup();
    renderIn(<CheckSummary summary={same} sheet />, 'en');
    expect(screen.getByTestId('check-no-change')).toHaveTextContent('publishing still creates a new version');
  });

  it('impact: counts, median and extremes in Italian percent, the requests with before, after and change', () => {
    renderIn(<ImpactPanel impact={answer.impact} />);
    const figure = (k: string) => screen.getByTestId(`impact-${k}`).textContent;
    expect(figure('considered')).toBe('Richieste considerate1.520');
    expect(figure('repriced')).toBe('Con prezzo diverso40');
    expect(figure('same_price')).toBe('Con prezzo invariato1.470');
    expect(figure('not_priceable')).toBe('Non più prezzabili10');
    expect(figure('median')).toBe('Variazione mediana+2,5%');
    expect(figure('max_increase')).toBe('Aumento massimo+12,3%');
    expect(figure('max_decrease')).toBe('Diminuzione massima-3%');
    const table = screen.getByTestId('impact-requests');
    expect(within(table).getByText('Le cinque richieste il cui prezzo cambia di più')).toBeInTheDocument();
    expect(rowsOf(table)).toEqual([
      ['TR-0007', '02/11/2026', '1.234,50\u00a0€', '1.386,83\u00a0€', '+12,3%'],
      ['TR-0009', '20/11/2026', '80,00\u00a0€', '77,60\u00a0€', '-3%'],
    ]);
  });

  it('impact null: a sentence instead of figures; French percent format', () => {
    renderIn(<ImpactPanel impact={null} />);
    expect(screen.getByTestId('impact-none')).toHaveTextContent('Nessuna richiesta recente di questo vettore da ricalcolare');
    expect(screen.queryByTestId('impact-requests')).toBeNull();
    expect(formatPercent(-12.345, 'fr')).toBe('-12,3\u00a0%');
    expect(formatPercent(null, 'it')).toBe('—');
  });

  it('errors: a table of row, column and message, with the sentence that nothing was saved', () => {
    const errors = [
      { row: 3, column: 'silver', message: 'riga 3, colonna silver: Non è un numero: "sei".' },
      { row: 4, column: 'code', message: 'riga 4, colonna code: Già presente alla riga 2 (code HUBMI).' },
    ];
    renderIn(<CheckErrors errors={errors} />);
    expect(screen.getByTestId('check-errors')).toHaveTextContent('Il file contiene 2 errori: non è stato salvato nulla.');
    const table = screen.getByTestId('check-errors-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Riga', 'Colonna', 'Messaggio']);
    expect(rowsOf(table)).toEqual([
      ['3', 'silver', 'Non è un numero: "sei".'],
      ['4', 'code', 'Già presente alla riga 2 (code HUBMI).'],
    ]);
    expect(bareMessage({ row: 3, column: 'gold', message: 'ligne 3, colonne gold : Négatif.' })).toBe('Négatif.');
    expect(bareMessage({ row: 3, column: 'gold', message: 'Altro testo' })).toBe('Altro testo');
  });
});
