import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { AdminContext } from 'react-admin';
import { buildI18nProvider } from '../../i18n';
import { componentMessages } from '../messages';
import { PortalPickerField } from './PortalPickers';
import type { PickerKind } from './wire';

// A desktop browser (a mouse): the pickers' fields are typed in, the calendar is a popper.
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

function Harness({ kind, initial, onChange, min }: { kind: PickerKind; initial: string; onChange: (v: string) => void; min?: string }) {
  const [v, setV] = useState(initial);
  return (
    <PortalPickerField
      kind={kind}
      label="Campo"
      value={v}
      min={min}
      testId="f"
      onChange={(x) => {
        setV(x);
        onChange(x);
      }}
    />
  );
}

const show = (lang: string, kind: PickerKind, initial: string, min?: string) => {
  const onChange = vi.fn();
  const { provider } = buildI18nProvider([componentMessages], lang);
  render(
    <AdminContext i18nProvider={provider}>
      <Harness kind={kind} initial={initial} onChange={onChange} min={min} />
    </AdminContext>,
  );
  const root = screen.getByTestId('f');
  const hidden = root.querySelector('input') as HTMLInputElement;
  const sections = () => Array.from(root.querySelectorAll('[role="spinbutton"]')).map((s) => s.textContent);
  return { root, hidden, sections, onChange };
};

/** Types each section as a keyboard does, digit by digit: 25 / 11 / 2026. */
async function typeSections(root: HTMLElement, texts: string[]) {
  const sections = Array.from(root.querySelectorAll<HTMLElement>('[role="spinbutton"]'));
  for (const [i, text] of texts.entries()) {
    const el = sections[i];
    await act(async () => {
      el.focus();
      fireEvent.click(el);
    });
    for (const ch of text) await act(async () => fireEvent.input(el, { target: { textContent: ch } }));
  }
}

describe('portal pickers', () => {
  it.each(['it', 'fr', 'en'])('%s: a date shows day first, 25/11/2026, and sends 2026-11-25', async (lang) => {
    const { hidden, sections, onChange } = show(lang, 'date', '2026-11-25');
    expect(hidden.value).toBe('25/11/2026');
    expect(sections()).toEqual(['25', '11', '2026']);
    await act(async () => fireEvent.change(hidden, { target: { value: '03/02/2027' } }));
    expect(onChange).toHaveBeenLastCalledWith('2027-02-03');
  });

  it.each(['it', 'fr', 'en'])('%s: a time is 24 h, 14:30, and sends HH:mm', async (lang) => {
    const { hidden, sections, onChange } = show(lang, 'time', '14:30');
    expect(hidden.value).toBe('14:30');
    // Hours and minutes only: no AM/PM section.
    expect(sections()).toEqual(['14', '30']);
    await act(async () => fireEvent.change(hidden, { target: { value: '07:05' } }));
    expect(onChange).toHaveBeenLastCalledWith('07:05');
  });

  it('typed on the keyboard in French, 25 11 2026 and 09 45 become 2026-11-25 and 09:45', async () => {
    const date = show('fr', 'date', '');
    await typeSections(date.root, ['25', '11', '2026']);
    expect(date.onChange).toHaveBeenLastCalledWith('2026-11-25');
    expect(date.hidden.value).toBe('25/11/2026');
    cleanup();
    const time = show('fr', 'time', '');
    await typeSections(time.root, ['09', '45']);
    expect(time.onChange).toHaveBeenLastCalledWith('09:45');
  });

  it('a month shows 11/2026 and sends 2026-11', async () => {
    const { hidden, onChange } = show('it', 'month', '2026-11');
    expect(hidden.value).toBe('11/2026');
    await act(async () => fireEvent.change(hidden, { target: { value: '02/2027' } }));
    expect(onChange).toHaveBeenLastCalledWith('2027-02');
  });

  it('reads a stored timestamp or seconds as the wire value', () => {
    expect(show('it', 'date', '2026-11-25 00:00:00').hidden.value).toBe('25/11/2026');
    cleanup();
    expect(show('it', 'time', '09:00:00').hidden.value).toBe('09:00');
  });

  it('an impossible date sends nothing and says so in the portal language once the field is left', async () => {
    const { root, onChange } = show('it', 'date', '');
    await typeSections(root, ['31', '02', '2026']);
    expect(Array.from(root.querySelectorAll('[role="spinbutton"]')).map((s) => s.textContent)).toEqual(['31', '02', '2026']);
    expect(onChange).not.toHaveBeenCalledWith(expect.stringMatching(/\d/));
    await act(async () => fireEvent.blur(root.querySelector('[role="spinbutton"]')!));
    expect(root.textContent).toContain('Data non valida: scrivila come GG/MM/AAAA');
  });

  it('a date before the minimum is refused with the limit written the French way', async () => {
    const { hidden, root } = show('fr', 'date', '', '2026-11-25');
    await act(async () => fireEvent.change(hidden, { target: { value: '24/11/2026' } }));
    await act(async () => fireEvent.blur(root.querySelector('[role="spinbutton"]')!));
    expect(root.textContent).toContain('Pas avant le 25/11/2026');
  });
});
