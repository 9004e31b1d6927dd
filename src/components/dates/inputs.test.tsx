import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Form, SaveButton, required } from 'react-admin';
import { buildI18nProvider } from '../../i18n';
import { componentMessages } from '../messages';
import { PortalDateInput, PortalMonthInput, PortalTimeInput } from './inputs';

beforeAll(() => {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('pointer: fine'),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});
afterEach(cleanup);

const renderForm = (record: Record<string, unknown>, onSubmit: (v: Record<string, unknown>) => void) => {
  const { provider } = buildI18nProvider([componentMessages], 'it');
  render(
    <AdminContext i18nProvider={provider}>
      <Form record={record} onSubmit={onSubmit}>
        <PortalDateInput source="day" label="Giorno" />
        <PortalTimeInput source="at" label="Ora" />
        <PortalMonthInput source="month" label="Mese" validate={required()} />
        <SaveButton alwaysEnable />
      </Form>
    </AdminContext>,
  );
  const hidden = (id: string) => screen.getByTestId(id).querySelector('input') as HTMLInputElement;
  return { hidden, save: () => act(async () => fireEvent.click(screen.getByRole('button', { name: /salva/i }))) };
};

describe('react-admin date inputs', { timeout: 30_000 }, () => {
  it('show a record in Italian and send it back as YYYY-MM-DD, HH:mm and YYYY-MM', async () => {
    const onSubmit = vi.fn();
    const { hidden, save } = renderForm({ day: '2026-11-25', at: '14:30', month: '2026-11' }, onSubmit);
    expect([hidden('input-day').value, hidden('input-at').value, hidden('input-month').value]).toEqual(['25/11/2026', '14:30', '11/2026']);
    await act(async () => fireEvent.change(hidden('input-day'), { target: { value: '01/12/2026' } }));
    await act(async () => fireEvent.change(hidden('input-month'), { target: { value: '02/2027' } }));
    await save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ day: '2026-12-01', at: '14:30', month: '2027-02' });
  });

  it('an unfinished month stops the form with the Italian message, not "required"', async () => {
    const onSubmit = vi.fn();
    const { save } = renderForm({}, onSubmit);
    const month = screen.getByTestId('input-month').querySelector<HTMLElement>('[role="spinbutton"]')!;
    await act(async () => {
      month.focus();
      fireEvent.click(month);
    });
    for (const ch of '11') await act(async () => fireEvent.input(month, { target: { textContent: ch } }));
    await act(async () => fireEvent.blur(month));
    await save();
    await waitFor(() => expect(screen.getByTestId('input-month').textContent).toContain('Mese non valido: scrivilo come MM/AAAA'));
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
