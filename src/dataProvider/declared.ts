import type { Identifier } from 'react-admin';
import { apiRequest, uploadWithProgress, type Query } from '../api/http';
import { downloadFile } from './tariffs';

/**
 * The calls of the generated resources beyond react-admin's CRUD (issue 34, /work contract §Bulk and
 * §Import): the bulk delete and the import's check, publish and template. The list screens call them by
 * name through `useDataProvider()`; react-admin's `deleteMany` is left as it was (one destroy per id) so
 * the hand-written resources keep their behaviour: a bulk answer carries a per-id outcome the screens
 * show, which `deleteMany`'s `{data: ids}` cannot say.
 */

/** One id's outcome of a bulk action. */
export interface BulkResult {
  id: number;
  result: 'deleted' | 'not_found' | 'conflict';
  /** Why, in the caller's language (a conflict names what still refers to the row). */
  message?: string;
}

/** `POST {api}/bulk` `{action: 'delete'}` answered: how many went, and each id's outcome. */
export interface BulkDeleteAnswer {
  message: string;
  deleted: number;
  results: BulkResult[];
}

/** One changed row of an import's check: the file's row, added or changed, its key and the fields before and after. */
export interface ImportChange {
  row: number;
  action: 'add' | 'change';
  key: string | number | null;
  fields: Record<string, { before: unknown; after: unknown }>;
}

/** The answer of an import's check (`dry_run=1`): nothing was stored. */
export interface ImportCheck {
  errors: Array<{ row: number; column: string; message: string }>;
  summary: { added: number; changed: number; unchanged: number };
  changes: ImportChange[];
}

/** What an import's publish did. */
export interface ImportPublished {
  message: string;
  added: number;
  changed: number;
  unchanged: number;
}

type PathOf = (resource: string) => { path: string };

/** The import's multipart form: the file, the admin's company on a company-tenancy resource, the check flag. */
function importForm(file: File, companyId: Identifier | null | undefined, dryRun: boolean): FormData {
  const form = new FormData();
  // The fields before the file: the server reads a multipart stream in order.
  form.append('dry_run', dryRun ? '1' : '0');
  if (companyId !== undefined && companyId !== null && companyId !== '') form.append('company_id', String(companyId));
  form.append('file', file, file.name);
  return form;
}

/** `announce` shows a write's message as a toast (the provider's `onAnswer`). */
export function declaredMethods(pathOf: PathOf, announce: (message: string) => void) {
  return {
    /**
     * Deletes the selected rows in one call. Rows of another company or already gone come back as
     * `not_found`, rows other records still use as `conflict` with the server's reason; nothing else changes.
     * The server's summary is the toast; the screen lists the ids that were not deleted.
     */
    bulkDelete: async (resource: string, ids: Identifier[]): Promise<BulkDeleteAnswer> => {
      const answer = await apiRequest(`${pathOf(resource).path}/bulk`, { method: 'POST', body: { action: 'delete', ids: ids.map(Number) } });
      const message = typeof answer?.message === 'string' ? answer.message : '';
      if (message.trim()) announce(message);
      return { message, deleted: Number(answer?.data?.deleted ?? 0), results: Array.isArray(answer?.data?.results) ? answer.data.results : [] };
    },
    /** Checks a file (`dry_run=1`) with the upload's progress: the errors by row and column, or what a publish would change. */
    importCheck: async (resource: string, params: { file: File; companyId?: Identifier | null; onProgress: (p: number) => void }): Promise<ImportCheck> => {
      const answer = await uploadWithProgress<{ data: ImportCheck }>(
        `${pathOf(resource).path}/import`,
        importForm(params.file, params.companyId, true),
        params.onProgress,
      );
      const d = answer?.data ?? ({} as Partial<ImportCheck>);
      return { errors: d.errors ?? [], summary: d.summary ?? { added: 0, changed: 0, unchanged: 0 }, changes: d.changes ?? [] };
    },
    /** Publishes the same file (one transaction on the server); its message ("2 righe aggiunte, 1 modificata") is the toast. */
    importPublish: async (
      resource: string,
      params: { file: File; companyId?: Identifier | null; onProgress: (p: number) => void },
    ): Promise<ImportPublished> => {
      const answer = await uploadWithProgress<any>(`${pathOf(resource).path}/import`, importForm(params.file, params.companyId, false), params.onProgress);
      const message = typeof answer?.message === 'string' ? answer.message : '';
      if (message.trim()) announce(message);
      return { message, added: Number(answer?.data?.added ?? 0), changed: Number(answer?.data?.changed ?? 0), unchanged: Number(answer?.data?.unchanged ?? 0) };
    },
    /** Saves the import's template: a header row of the field labels in the caller's language. */
    importTemplate: (resource: string, format: 'xlsx' | 'csv' = 'xlsx') => {
      const query: Query = { format };
      return downloadFile(`${pathOf(resource).path}/import/template`, query, `${resource}.${format}`);
    },
  };
}

export type DeclaredMethods = ReturnType<typeof declaredMethods>;
