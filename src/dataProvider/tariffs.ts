import type { CreateParams, DataProvider, Identifier } from 'react-admin';
import type { Kind } from '../../model/roles';
import { apiRequest, toBody, uploadWithProgress, type Query } from '../api/http';

/**
 * The tariff screens' calls beyond react-admin's CRUD (calculator document §2–3, §7), merged into the
 * portal's data provider: an upload with its progress (the tables' and rate sheets' `create`), the
 * whole-set delete of a tariff table, and the attachments (templates, a sheet's file, the end user's sheet).
 * Screens call them with `useDataProvider()` and react-query's `useMutation`.
 */

/** The filename of a Content-Disposition header (RFC 5987 form first). */
export function attachmentFilename(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through */
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/** The answer's body as a File named by its Content-Disposition (a plain Blob when the answer names none). */
export async function namedFile(res: Response): Promise<Blob> {
  const blob = await res.blob();
  const name = attachmentFilename(res.headers.get('content-disposition'), '');
  return name ? new File([blob], name, { type: blob.type }) : blob;
}

/**
 * Downloads a file the API answers as an attachment: fetched with the bearer header (a token never goes
 * into a URL, server.md §5), then saved through a temporary blob link.
 */
export async function downloadFile(path: string, query: Query | undefined, fallbackName: string) {
  const res = await apiRequest<Response>(path, { query, raw: true });
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = attachmentFilename(res.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type PathOf = (resource: string) => { path: string };

/** A shown row of a check: money in euros, integers as numbers, decimals and text as stored (docs/tariff-checks.md). */
export type CheckRow = Record<string, string | number | null>;

/** One request of the check's impact, repriced with the file's tariffs (euros). */
export interface ImpactRequest {
  id: number;
  code: string;
  created_on: string;
  before: number;
  after: number;
  change_percent: number;
}

/** What publishing the file would do to the carrier's recent requests (null: nothing to reprice). */
export interface TariffImpact {
  considered: number;
  repriced: number;
  unchanged: number;
  not_priceable: number;
  median_change_percent: number | null;
  max_increase_percent: number | null;
  max_decrease_percent: number | null;
  requests: ImpactRequest[];
}

/** The answer of an upload's check (`dry_run=1`): nothing was stored (docs/tariff-checks.md). */
export interface TariffCheck {
  dry_run: true;
  errors: Array<{ row: number; column: string; message: string }>;
  summary: { added: number; changed: number; removed: number; unchanged: number };
  changes: Array<{ key: CheckRow; before: CheckRow | null; after: CheckRow | null }>;
  impact: TariffImpact | null;
}

/** A record's fields and file as a multipart form (a file field keeps its name). */
function uploadForm(data: Record<string, unknown>): FormData {
  const body = toBody(data);
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) form.append(k, String(v));
  return form;
}

/** The namespace of the caller's tariff calls: /admin for admins (any carrier), /company for carriers. */
const nsOf = (kind: Kind) => (kind === 'admin' ? '/admin' : '/company');

/** `announce` shows an answer's message (the provider's `onAnswer`: the provider itself shows nothing). */
export function tariffMethods(base: DataProvider, pathOf: PathOf, getKind: () => Kind, announce: (answer: any) => void) {
  const companyQuery = (companyId?: Identifier | null): Query | undefined =>
    getKind() === 'admin' && companyId ? { company_id: Number(companyId) } : undefined;
  return {
    /**
     * An upload (a tariff table's import, a new rate sheet) when `meta.onProgress` is given: the record's
     * fields and its file (named after the table, `spec.fileField`) as multipart, with the progress. The
     * refusal stays whole (its per-row messages are listed by the dialog); the success message is a toast.
     */
    create: async (resource: string, params: CreateParams) => {
      const onProgress = params.meta?.onProgress as ((p: number) => void) | undefined;
      if (!onProgress) return base.create(resource, params);
      const answer = await uploadWithProgress(`${pathOf(resource).path}/store`, uploadForm(params.data as Record<string, unknown>), onProgress);
      announce(answer);
      const data = answer?.data && typeof answer.data === 'object' ? answer.data : { id: 0 };
      return { data: { id: 0, ...data }, meta: { message: answer?.message } };
    },
    /**
     * The check of an upload (issue 20): the same fields and file as the `create` above with `dry_run=1`,
     * with the progress; answers what a publish would do (errors, summary, changes, impact), storing nothing.
     * A file-level refusal (not a spreadsheet, no header…) is thrown as for a publish.
     */
    checkUpload: async (resource: string, params: { data: Record<string, unknown>; onProgress: (p: number) => void }): Promise<TariffCheck> => {
      const answer = await uploadWithProgress<{ data: TariffCheck }>(
        `${pathOf(resource).path}/store`,
        uploadForm({ ...params.data, dry_run: 1 }),
        params.onProgress,
      );
      return answer.data;
    },
    /** The admin's company selector of the tariff screens: the companies that own tariffs. */
    tariffCompanies: (signal?: AbortSignal) =>
      apiRequest<{ data: Array<{ id: number; legal_name: string; company_role_id: number; status_id: number }> }>('/admin/tariff_companies', { signal }),
    /** The carrier's end-user companies with the categories they are priced with (paged). */
    enduserCategories: (query: Query, signal?: AbortSignal) => apiRequest<any>(`${nsOf(getKind())}/enduser_carrier_categories`, { query, signal }),
    /** One rate sheet's rows (paged), with the sheet. */
    rateSheetRows: (id: Identifier, query: Query, signal?: AbortSignal) => apiRequest<any>(`${nsOf(getKind())}/rate_sheet/rows/${id}`, { query, signal }),
    /** The end user's applicable sheets, with its own increase or decrease applied (`standard_rate_sheet`, `express_rate_sheet`). */
    myRateSheet: (query: Query, signal?: AbortSignal) => apiRequest<any>('/enduser/getMyRateSheet', { query, signal }),
    /** Deletes a carrier's whole set of a tariff table (the admin names the carrier). */
    deleteTariffSet: async (resource: string, params: { companyId?: Identifier | null }) => {
      const { path } = pathOf(resource);
      const query = companyQuery(params.companyId);
      const answer = query ? await apiRequest(`${path}/destroy`, { method: 'POST', body: query }) : await apiRequest(`${path}/destroy`);
      announce(answer);
      return { data: answer };
    },
    /** Deletes one rate sheet (its rows go with it; the category stays). */
    deleteRateSheet: async (params: { id: Identifier; companyId?: Identifier | null }) => {
      const { path } = pathOf('rate-sheets');
      const answer = await apiRequest(`${path}/destroy/${params.id}`, { method: 'POST', body: companyQuery(params.companyId) ?? {} });
      announce(answer);
      return { data: answer };
    },
    /** Sets the express or standard category an end-user company of the carrier is priced with (null: the carrier's standard sheet). */
    saveEnduserCategory: async (params: {
      enduserId: Identifier;
      field: 'exp_category_id' | 'std_category_id';
      value: number | null;
      companyId?: Identifier | null;
    }) => {
      const answer = await apiRequest(`${nsOf(getKind())}/enduser_carrier_categories/store`, {
        method: 'POST',
        body: { ...companyQuery(params.companyId), enduser_id: params.enduserId, [params.field]: params.value },
      });
      announce(answer);
      return { data: answer };
    },
    /** Saves a template (calculator document §3 "Template link keys"). */
    downloadTemplate: (params: { templateKey: string; fileName: string }) =>
      downloadFile(`${nsOf(getKind())}/tariff_templates/${params.templateKey}`, undefined, params.fileName),
    /** Saves a rate sheet's uploaded file. */
    downloadRateSheet: (params: { id: Identifier; companyId?: Identifier | null; fileName: string }) =>
      downloadFile(`${pathOf('rate-sheets').path}/download/${params.id}`, companyQuery(params.companyId), params.fileName),
    /** Saves what a carrier's tariff table stores, as an .xlsx in the template's columns (the admin names the carrier). */
    exportTariffTable: (resource: string, params: { companyId?: Identifier | null; fileName: string }) =>
      downloadFile(`${pathOf(resource).path}/export`, companyQuery(params.companyId), params.fileName),
    /** Saves a rate sheet's stored rows, as an .xlsx in the template's columns. */
    exportRateSheet: (params: { id: Identifier; companyId?: Identifier | null; fileName: string }) =>
      downloadFile(`${pathOf('rate-sheets').path}/export/${params.id}`, companyQuery(params.companyId), params.fileName),
    /** Saves the end user's applicable sheet with its own prices. */
    downloadMyRateSheet: (params: { rateType: string; zone: string; fileName: string }) =>
      downloadFile(`${pathOf('enduser-rate-sheets').path}/download`, { rate_type: params.rateType, zone: params.zone }, params.fileName),
  };
}

export type TariffMethods = ReturnType<typeof tariffMethods>;
