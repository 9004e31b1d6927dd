import { apiRequest } from '../api/http';
import type { Kind } from '../../model/roles';
import addressBook, { type AddressKind } from '../../model/resources/address-book';

/** A place of the address book as its generated routes answer it (model/resources/address-book.ts). */
export interface BookPlace {
  id: number;
  company_id: number;
  name: string;
  kind: AddressKind;
  address: string;
  postal_code: string;
  city: string;
  province: string | null;
  country_id: number;
  /** The country's name beside its id (a reference's display text, issue 34). */
  country_name: string | null;
  contact: string | null;
  phone: string | null;
  email: string | null;
  opening_hours: string | null;
  notes: string | null;
}

/** What the booking form stores: the declared fields but `notes` and `opening_hours`, which it does not know. */
export type NewBookPlace = Pick<BookPlace, 'name' | 'kind' | 'address' | 'postal_code' | 'city' | 'province' | 'country_id'>;

/** The caller's path, from the declaration (enduser → /enduser/address_book, carrier → /company/…, admin → /admin/…). */
const pathOf = (kind: Kind) => {
  const path = addressBook.api[kind];
  if (!path) throw new Error(`address book: no path for ${kind}`);
  return path;
};

type Page = { data: BookPlace[]; total: number };

/**
 * The booking form's calls to the address book (src/custom/transportRequests/AddressBookPicker.tsx). Named
 * calls rather than react-admin's getList/create: the picker merges two filtered lists, and a place saved after
 * a booking must not raise the provider's generic toasts (the form words one message for the booking and its places).
 */
export const addressBookMethods = (getKind: () => Kind) => ({
  /**
   * The places one end of a transport may use (`kinds`: the end's own and `both`), matching `q`, by name:
   * one filtered list per kind (the declared `?kind=` filter), merged. An admin names the company.
   */
  addressBookPlaces: async (opts: { kinds: readonly AddressKind[]; q?: string; companyId?: number; perKind?: number; signal?: AbortSignal }) => {
    const path = pathOf(getKind());
    const pages = await Promise.all(
      opts.kinds.map((kind) =>
        apiRequest<Page>(path, {
          query: { kind, q: opts.q?.trim() || undefined, company_id: opts.companyId, sort: 'name', order: 'asc', page: 1, per_page: opts.perKind ?? 20 },
          signal: opts.signal,
        }),
      ),
    );
    return pages.flatMap((p) => p.data).sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id);
  },
  /** Stores a place in the caller's address book (an end user's or carrier's own company: the server sets it). */
  saveAddressBookPlace: (body: NewBookPlace) =>
    apiRequest<{ status: boolean; message: string; data: BookPlace }>(`${pathOf(getKind())}/store`, { method: 'POST', body }),
});
