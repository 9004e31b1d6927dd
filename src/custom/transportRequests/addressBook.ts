import type { AddressKind } from '../../../model/resources/address-book';
import type { BookPlace, NewBookPlace } from '../../dataProvider/addressBook';
import type { PlaceForm } from './createForm';

/**
 * The booking form and the address book (issue 34), pure: which places an end of the transport may pick, what a
 * pick writes into its section, and the place a section saves. AddressBookPicker.tsx and CreateRequestPage.tsx
 * call these; addressBook.test.ts checks them.
 */

export type End = 'pickup' | 'delivery';

/** The kinds of place an end picks from: its own and the places used for both. */
export const kindsFor = (end: End): AddressKind[] => [end, 'both'];

/** The booking's notes hold at most this much (server/routes/requests/payload.ts `pickupnotes`). */
export const NOTES_MAX = 1000;

type Country = { id: number; iso_alpha_2: string | null };

/** The words the notes' lines start with, in the user's language. */
export interface NoteLabels {
  contact: string;
  phone: string;
  email: string;
  hours: string;
}

/**
 * What a place tells the driver, as the section's notes: the contact, phone, e-mail and opening hours (the
 * booking has no fields of its own for them, and its notes reach the carrier and the waybill), then the place's
 * own notes. Empty when the place has none of them.
 */
export function placeNotes(p: BookPlace, l: NoteLabels): string {
  const lines = [
    p.contact && `${l.contact}: ${p.contact}`,
    p.phone && `${l.phone}: ${p.phone}`,
    p.email && `${l.email}: ${p.email}`,
    p.opening_hours && `${l.hours}: ${p.opening_hours}`,
    p.notes,
  ].filter((x): x is string => !!x && !!x.trim());
  return lines.join('\n');
}

/**
 * When the booking comes from a quote its postal code and country are the quote's and locked (the price depends
 * on them): a place elsewhere cannot be used, and the picker says why (null: it fits).
 */
export function quoteMismatch(p: BookPlace, form: PlaceForm, countries: Country[], fromQuote: boolean): 'other_place' | null {
  if (!fromQuote) return null;
  const iso = countries.find((c) => c.id === p.country_id)?.iso_alpha_2 ?? null;
  const samePostal = p.postal_code.replace(/\s+/g, '').toUpperCase() === form.postalCode.replace(/\s+/g, '').toUpperCase();
  return samePostal && iso === form.country.toUpperCase() ? null : 'other_place';
}

/**
 * The section after a pick: the place's name and address and — unless a quote locks them — its postal code,
 * city, province and country (the form's ISO code of the place's country id; the form's own when the country is
 * not in the list). The notes: the place's (placeNotes) replace the section's when these are empty or are what
 * the previous pick wrote; otherwise the user's own words stay and the place's follow on a new line. The date
 * and the time window are the booking's, never touched. `bookId` remembers the pick (no "save" offer for it).
 */
export function fillFromPlace(form: PlaceForm, p: BookPlace, countries: Country[], opts: { fromQuote: boolean; labels: NoteLabels }): PlaceForm {
  const iso = countries.find((c) => c.id === p.country_id)?.iso_alpha_2 ?? null;
  const auto = placeNotes(p, opts.labels);
  const mine = form.notes.trim() && form.notes !== form.bookNotes ? form.notes.trimEnd() : '';
  const notes = (mine && auto ? `${mine}\n${auto}` : mine || auto).slice(0, NOTES_MAX);
  return {
    ...form,
    locationName: p.name,
    address: p.address,
    ...(opts.fromQuote ? {} : { postalCode: p.postal_code, city: p.city, province: p.province ?? '', country: iso ?? form.country }),
    notes,
    bookNotes: notes,
    bookId: p.id,
    saveToBook: false,
  };
}

/**
 * The place a section saves in the address book after the booking: its name, address and country, of the kind
 * of its end (a pickup place for pickups). The province only when it is a two-letter code (the address book's
 * rule); the booking's notes are about this transport and stay out. Null when the country is not in the list.
 */
export function placeToSave(form: PlaceForm, end: End, countries: Country[]): NewBookPlace | null {
  const country = countries.find((c) => c.iso_alpha_2 === form.country.toUpperCase());
  if (!country) return null;
  const province = form.province.trim().toUpperCase();
  return {
    name: form.locationName.trim(),
    kind: end,
    address: form.address.trim(),
    postal_code: form.postalCode.trim(),
    city: form.city.trim(),
    province: /^[A-Z0-9]{1,2}$/.test(province) ? province : null,
    country_id: country.id,
  };
}

/** The section after the user types its name: a new name is a new place (the pick is forgotten, saving is offered again). */
export const renamed = (form: PlaceForm, locationName: string): PlaceForm =>
  form.bookId !== undefined && form.bookId !== null ? { ...form, locationName, bookId: null } : { ...form, locationName };
