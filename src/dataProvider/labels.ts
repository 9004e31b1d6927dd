import { apiRequest } from '../api/http';
import type { Kind } from '../../model/roles';
import { namespaceOf } from './requests';

/** A carrier's pallet label settings as GET /{company|admin}/label_settings answers them (docs/pallet-labels.md). */
export interface LabelSettings {
  gs1_company_prefix: string | null;
  extension_digit: number;
  last_serial: number;
  max_serial: number | null;
  can_edit: boolean;
}

/** Pallet labels (issue 36 item 3): the request screen's download, the settings section's prefix. */
export const labelMethods = () => ({
  /** A confirmed request's pallet labels: A6 PDF pages, or ZPL text for a 4 × 6 in thermal printer. The first print numbers the pallets. */
  downloadLabels: async (kind: Kind, id: number, format: 'pdf' | 'zpl'): Promise<Blob> =>
    (await apiRequest<Response>(`/${namespaceOf(kind)}/transport_requests/labels/${id}`, { query: { format }, raw: true })).blob(),
  /** The caller's company settings (a carrier). */
  labelSettings: () => apiRequest<{ data: LabelSettings }>('/company/label_settings').then((a) => a.data),
  saveLabelSettings: (gs1_company_prefix: string) =>
    apiRequest<{ message: string; data: LabelSettings }>('/company/label_settings/update', { body: { gs1_company_prefix } }),
  /** The admin's, on a carrier company's detail screen. */
  adminLabelSettings: (companyId: number) => apiRequest<{ data: LabelSettings }>(`/admin/label_settings/${companyId}`).then((a) => a.data),
  saveAdminLabelSettings: (companyId: number, gs1_company_prefix: string) =>
    apiRequest<{ message: string; data: LabelSettings }>(`/admin/label_settings/update/${companyId}`, { body: { gs1_company_prefix } }),
});
