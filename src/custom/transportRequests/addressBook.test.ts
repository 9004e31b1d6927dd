import { describe, expect, it } from 'vitest';
import type { BookPlace } from '../../dataProvider/addressBook';
import { fillFromPlace, kindsFor, placeNotes, placeToSave, quoteMismatch, renamed } from './addressBook';
import { emptyPlace, newShipment, validate } from './createForm';

const countries = [
  { id: 110, iso_alpha_2: 'IT' },
  { id: 75, iso_alpha_2: 'FR' },
];
const labels = { contact: 'Referente', phone: 'Tel.', email: 'E-mail', hours: 'Orari' };

const lingotto: BookPlace = {
  id: 7,
  company_id: 3,
  name: 'Officine Lingotto',
  kind: 'delivery',
  address: 'Via Nizza 230',
  postal_code: '10126',
  city: 'Torino',
  province: 'TO',
  country_id: 110,
  country_name: 'Italy',
  contact: 'Paolo Bruno',
  phone: '+39 011 555 0230',
  email: null,
  opening_hours: 'Lun–Ven 7:30–16:00',
  notes: 'Scarico con sponda idraulica.',
};
const corbas: BookPlace = {
  ...lingotto,
  id: 8,
  name: 'Entrepôt Lyon Corbas',
  address: '12 Rue Marcel Mérieux',
  postal_code: '69960',
  city: 'Corbas',
  province: null,
  country_id: 75,
  country_name: 'France',
  contact: null,
  phone: null,
  opening_hours: null,
  notes: null,
};

describe('the booking form and the address book (issue 34)', () => {
  it('offers an end its own places and those for both', () => {
    expect(kindsFor('pickup')).toEqual(['pickup', 'both']);
    expect(kindsFor('delivery')).toEqual(['delivery', 'both']);
  });

  it('a pick fills the place, keeps the date and window, and tells the driver the contact in the notes', () => {
    const before = emptyPlace({ date: '2026-05-04', timeFrom: '09:00', timeTo: '12:00' });
    const after = fillFromPlace(before, lingotto, countries, { fromQuote: false, labels });
    expect(after).toMatchObject({
      date: '2026-05-04',
      timeFrom: '09:00',
      timeTo: '12:00',
      locationName: 'Officine Lingotto',
      address: 'Via Nizza 230',
      postalCode: '10126',
      city: 'Torino',
      province: 'TO',
      country: 'IT',
      bookId: 7,
      saveToBook: false,
    });
    expect(after.notes).toBe('Referente: Paolo Bruno\nTel.: +39 011 555 0230\nOrari: Lun–Ven 7:30–16:00\nScarico con sponda idraulica.');
    expect(placeNotes(corbas, labels)).toBe('');
  });

  it('a second pick replaces what the first wrote, but never the user’s own notes', () => {
    const first = fillFromPlace(emptyPlace(), lingotto, countries, { fromQuote: false, labels });
    const second = fillFromPlace(first, corbas, countries, { fromQuote: false, labels });
    expect(second).toMatchObject({ locationName: 'Entrepôt Lyon Corbas', country: 'FR', province: '', notes: '' });
    const typed = fillFromPlace(emptyPlace({ notes: 'Citofonare 2 volte ' }), lingotto, countries, { fromQuote: false, labels });
    expect(typed.notes.split('\n')[0]).toBe('Citofonare 2 volte');
    expect(typed.notes).toContain('Referente: Paolo Bruno');
    const long = fillFromPlace(emptyPlace({ notes: 'x'.repeat(990) }), lingotto, countries, { fromQuote: false, labels });
    expect(long.notes).toHaveLength(1000);
  });

  it('from a quote only the name, address and notes are taken; a place elsewhere is ruled out', () => {
    const quoted = emptyPlace({ postalCode: '10126', city: 'Torino', province: 'TO', country: 'IT' });
    expect(quoteMismatch(lingotto, quoted, countries, true)).toBeNull();
    expect(quoteMismatch(corbas, quoted, countries, true)).toBe('other_place');
    expect(quoteMismatch(corbas, quoted, countries, false)).toBeNull();
    const after = fillFromPlace({ ...quoted, city: 'TORINO' }, lingotto, countries, { fromQuote: true, labels });
    expect(after).toMatchObject({ locationName: 'Officine Lingotto', address: 'Via Nizza 230', city: 'TORINO', postalCode: '10126' });
  });

  it('a country missing from the list leaves the form’s own', () => {
    expect(fillFromPlace(emptyPlace({ country: 'DE' }), { ...corbas, country_id: 999 }, countries, { fromQuote: false, labels }).country).toBe('DE');
  });

  it('typing another name forgets the pick, so saving is offered again', () => {
    const picked = fillFromPlace(emptyPlace(), lingotto, countries, { fromQuote: false, labels });
    expect(renamed(picked, 'Officine Lingotto 2')).toMatchObject({ locationName: 'Officine Lingotto 2', bookId: null });
    expect(renamed(emptyPlace(), 'Nuovo')).toEqual(emptyPlace({ locationName: 'Nuovo' }));
  });

  it('the place a section saves: of its end’s kind, a two-letter province only, no booking notes', () => {
    const typed = emptyPlace({
      locationName: ' Magazzino Nord ',
      address: 'Via Larga 3',
      postalCode: '20122',
      city: 'Milano',
      province: 'mi',
      country: 'IT',
      notes: 'Solo oggi',
    });
    expect(placeToSave(typed, 'pickup', countries)).toEqual({
      name: 'Magazzino Nord',
      kind: 'pickup',
      address: 'Via Larga 3',
      postal_code: '20122',
      city: 'Milano',
      province: 'MI',
      country_id: 110,
    });
    expect(placeToSave({ ...typed, province: 'Milano' }, 'delivery', countries)).toMatchObject({ kind: 'delivery', province: null });
    expect(placeToSave({ ...typed, country: 'XX' }, 'pickup', countries)).toBeNull();
  });

  it('a place to save needs its city (the address book requires it; the booking does not)', () => {
    const s = newShipment(null);
    const filled = {
      ...s,
      shipperref: 'R1',
      units: '1',
      weight: '10',
      volume: '1',
      volumeType: 'CBM' as const,
      pickup: { ...s.pickup, date: '2030-01-02', timeFrom: '08:00', timeTo: '10:00', locationName: 'A', address: 'Via A 1', postalCode: '40100' },
      delivery: { ...s.delivery, locationName: 'B', address: 'Via B 2', postalCode: '00100' },
    };
    expect(validate([filled], [], { handOver: false, today: '2030-01-01' })).toEqual({});
    const saving = { ...filled, delivery: { ...filled.delivery, saveToBook: true } };
    expect(validate([saving], [], { handOver: false, today: '2030-01-01' })).toEqual({ 's0.delivery.city': 'requests.required' });
  });
});
