import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import type { Kind } from '../../model/roles';
import { HttpError } from 'react-admin';
import { apiRequest, toBody, toHttpError, type Query } from '../api/http';
import { formErrors, normalizeError } from '../api/errors';

/** Where a resource lives on the server, per namespace of the caller's kind (/admin, /company, /enduser). */
export interface ResourceApi {
  paths: Partial<Record<Kind, string>>;
  /** Key of the list answer that holds the paged object (e.g. `transportRequests`); top level otherwise. */
  listKey?: string;
  /** Filters that always travel, e.g. a fixed company_id. */
  defaultQuery?: Query;
}

export type ApiMap = Record<string, ResourceApi>;

/** A paged answer in any of the portal's shapes (server.md §1). */
export function readPage(answer: any, listKey?: string): { data: any[]; total: number } {
  const page = listKey ? answer?.[listKey] : answer;
  const rows = Array.isArray(page?.data) ? page.data : Array.isArray(page) ? page : [];
  const total = Number(page?.meta?.total ?? page?.total ?? rows.length);
  return { data: rows, total };
}

/**
 * What the provider tells the screens without importing any of them (App.tsx wires these to the toasts):
 * a successful write's `message`, and a refused write's field messages.
 */
export interface ProviderEvents {
  /** A store/update/destroy/changeStatus answered `{status: true, message}`: its message. */
  onAnswer?: (message: string) => void;
  /** A refused write's field messages (`{field: [messages]}`). */
  onFieldErrors?: (errors: Record<string, string[]>) => void;
  /** The caller's kind, which picks a resource's path (App.tsx: the signed-in role). */
  getKind: () => Kind;
}

/**
 * A failed write, as react-admin's forms take it: `body.errors` holds each field's messages joined
 * (shown under its input) and `root.serverError` the message (the form's error toast); the lists stay
 * in `body.errorList`. The field messages go to `onFieldErrors` (one toast each).
 */
export function mutationError(e: unknown, onFieldErrors?: ProviderEvents['onFieldErrors']): unknown {
  if (!(e instanceof HttpError)) return e;
  const n = normalizeError(e);
  if (!Object.keys(n.errors).length) return e;
  onFieldErrors?.(n.errors);
  return new HttpError(n.message, e.status, {
    ...e.body,
    message: n.message,
    errorList: n.errors,
    errors: { ...formErrors(n.errors), root: { serverError: n.message } },
  });
}

/**
 * The resources' calls (paths per caller's kind, paged shapes, store/update/destroy/changeStatus) and the
 * pieces the areas' methods share; buildDataProvider (index.ts) and the visitor's (visitor.ts) add the
 * named methods of the areas they serve.
 */
export function resourceMethods(apis: ApiMap, events: ProviderEvents) {
  const { getKind } = events;

  /** A write answer `{status, message, data}`; `status: false` is a refusal carried as an error. */
  const readWrite = (answer: any, fallback: RaRecord) => {
    if (answer && answer.status === false) throw toHttpError(422, answer);
    const message = answer?.message;
    if (typeof message === 'string' && message.trim()) events.onAnswer?.(message);
    const data = answer?.data && typeof answer.data === 'object' ? answer.data : fallback;
    return { data: data as any, meta: { message } };
  };
  /**
   * `quiet`: the calling form shows each field message at its input (meta `fieldErrorsShown`, issue 35:
   * one message per problem), so no toast repeats them.
   */
  const guardWrite = <T>(run: () => Promise<T>, quiet = false): Promise<T> =>
    run().catch((e) => {
      throw mutationError(e, quiet ? undefined : events.onFieldErrors);
    });
  const quietOf = (params: { meta?: any }) => params.meta?.fieldErrorsShown === true;

  const pathOf = (resource: string) => {
    const api = apis[resource];
    if (!api) throw new Error(`Unknown resource ${resource}`);
    const kind = getKind();
    const path = api.paths[kind] ?? api.paths.admin;
    if (!path) throw new Error(`Resource ${resource} has no path for ${kind}`);
    return { path, api };
  };

  const listQuery = (params: Partial<GetListParams>, api: ResourceApi): Query => ({
    ...api.defaultQuery,
    page: params.pagination?.page ?? 1,
    per_page: params.pagination?.perPage ?? 15,
    sort: params.sort?.field,
    order: params.sort?.order ? params.sort.order.toLowerCase() : undefined,
    ...(params.filter ?? {}),
  });

  const base: DataProvider = {
    async getList(resource, params) {
      const { path, api } = pathOf(resource);
      const answer = await apiRequest(path, { query: listQuery(params, api), signal: params.signal });
      return readPage(answer, api.listKey);
    },
    async getOne(resource, params) {
      const { path } = pathOf(resource);
      const answer = await apiRequest(`${path}/show/${params.id}`, { signal: params.signal });
      return { data: answer?.data ?? answer };
    },
    async getMany(resource, params) {
      const { path } = pathOf(resource);
      const rows = await Promise.all(params.ids.map((id) => apiRequest(`${path}/show/${id}`, { signal: params.signal }).then((a) => a?.data ?? a)));
      return { data: rows };
    },
    async getManyReference(resource, params) {
      const { path, api } = pathOf(resource);
      const answer = await apiRequest(path, {
        query: listQuery({ ...params, filter: { ...params.filter, [params.target]: params.id } }, api),
        signal: params.signal,
      });
      return readPage(answer, api.listKey);
    },
    create: (resource, params) =>
      guardWrite(async () => {
        const { path } = pathOf(resource);
        const answer = await apiRequest(`${path}/store`, { method: 'POST', body: toBody(params.data) });
        return readWrite(answer, params.data as RaRecord);
      }, quietOf(params)),
    update: (resource, params) =>
      guardWrite(async () => {
        const { path } = pathOf(resource);
        const { id: _id, ...data } = params.data as Record<string, unknown>;
        const answer = await apiRequest(`${path}/update/${params.id}`, { method: 'POST', body: toBody(data) });
        return readWrite(answer, { ...params.previousData, ...params.data, id: params.id });
      }, quietOf(params)),
    async updateMany(resource, params) {
      for (const id of params.ids) await base.update(resource, { id, data: params.data, previousData: { id } });
      return { data: params.ids };
    },
    delete: (resource, params) =>
      guardWrite(async () => {
        const { path } = pathOf(resource);
        const answer = await apiRequest(`${path}/destroy/${params.id}`);
        return readWrite(answer, (params.previousData ?? { id: params.id }) as RaRecord);
      }),
    async deleteMany(resource, params) {
      for (const id of params.ids) await base.delete(resource, { id });
      return { data: params.ids };
    },
  };

  /** Switches a record between active and inactive (`changeStatus/{id}`). */
  const changeStatus = (resource: string, params: { id: Identifier }) =>
    guardWrite(async () => {
      const { path } = pathOf(resource);
      const answer = await apiRequest(`${path}/changeStatus/${params.id}`);
      return readWrite(answer, { id: params.id });
    });

  return { base, changeStatus, pathOf, listQuery };
}
