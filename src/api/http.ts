import { HttpError } from 'ra-core';
import { API_BASE, apiPassword } from '../config';

/** The body of every error the client sees: the server's message and its field errors (empty by default). */
export interface ErrorBody {
  message: string;
  errors: Record<string, string[]>;
  status?: boolean;
}

/**
 * The session as the client sees it, registered at start-up by the auth side (`connectSession`): where the
 * bearer token comes from, and what a 401 on a signed-in call does. The client itself knows no storage.
 */
interface SessionHooks {
  token: () => string | null;
  onExpired: () => void;
}
let session: SessionHooks = { token: () => null, onExpired: () => undefined };
export function connectSession(hooks: SessionHooks) {
  session = hooks;
}

let currentLocale = 'it';
/** The i18n provider calls this when the language changes, so the server answers in it. */
export const setRequestLocale = (locale: string) => {
  currentLocale = locale;
};
/** The language the server answers in (also for calls made outside apiRequest, e.g. an upload with progress). */
export const requestLocale = () => currentLocale;

export type Query = Record<string, string | number | boolean | null | undefined | Array<string | number>>;

export function toQueryString(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((item) => params.append(`${k}[]`, String(item)));
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The full address of an API path (an EventSource's, which cannot go through apiRequest). */
export const apiAddress = (path: string, query?: Query) => `${window.location.origin}${API_BASE}${path}${toQueryString(query)}`;

/** Normalises any failure into an HttpError carrying the server's message (or "Internal server error") and an errors object. */
export function toHttpError(status: number, body: unknown): HttpError {
  const b = (body && typeof body === 'object' ? body : {}) as Partial<ErrorBody>;
  const message = typeof b.message === 'string' && b.message ? b.message : 'Internal server error';
  const errors = b.errors && typeof b.errors === 'object' && !Array.isArray(b.errors) ? b.errors : {};
  return new HttpError(message, status, { ...b, message, errors });
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Answer the raw Response (downloads). */
  raw?: boolean;
  /** Send no bearer token even when signed in (the public quote page prices as a visitor). */
  anonymous?: boolean;
  /**
   * The language to answer in, when the caller knows it better than the i18n provider at that moment: a query
   * keyed by the locale refetches on the render that switches language, before the provider's change reaches
   * setRequestLocale (issue 35: names of reference data).
   */
  lang?: string;
}

/** Every call to the portal API goes through here: headers, language, errors in one place. */
export async function apiRequest<T = any>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers = new Headers({ 'X-Api-Password': apiPassword(), 'Accept-Language': opts.lang ?? currentLocale, Accept: 'application/json' });
  const token = session.token();
  if (token && !opts.anonymous) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(opts.body);
  }
  let response: Response;
  try {
    response = await fetch(`${window.location.origin}${API_BASE}${path}${toQueryString(opts.query)}`, {
      method: opts.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw toHttpError(0, { message: 'ra.notification.http_error' });
  }
  if (opts.raw && response.ok) return response as unknown as T;
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // A token the server no longer accepts (expired, revoked, user deactivated): back to the login screen.
  if (response.status === 401 && token) session.onExpired();
  if (!response.ok) {
    const error = toHttpError(response.status, json);
    // A 429 says when to come back (seconds): the login screen tells the user how long to wait.
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (response.status === 429 && retryAfter > 0) error.body.retryAfter = retryAfter;
    throw error;
  }
  return json as T;
}

/**
 * Turns a record into FormData when it holds a file (react-admin's FileInput gives `{rawFile}`),
 * naming arrays `name[]` as the server expects; otherwise answers the object unchanged.
 */
export function toBody(data: Record<string, unknown>): FormData | Record<string, unknown> {
  const hasFile = (v: unknown): boolean =>
    v instanceof File || (Array.isArray(v) ? v.some(hasFile) : !!v && typeof v === 'object' && (v as any).rawFile instanceof File);
  if (!Object.values(data).some(hasFile)) return data;
  const form = new FormData();
  const append = (key: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (v instanceof File) form.append(key, v, v.name);
    else if (typeof v === 'object' && (v as any).rawFile instanceof File) form.append(key, (v as any).rawFile, (v as any).rawFile.name);
    else if (typeof v === 'object' && !(v instanceof Date))
      return; // nested objects (previews) do not travel
    else form.append(key, String(v));
  };
  for (const [k, v] of Object.entries(data)) {
    if (Array.isArray(v)) v.forEach((item) => append(`${k}[]`, item));
    else append(k, typeof v === 'boolean' ? (v ? '1' : '0') : v);
  }
  return form;
}

/**
 * Sends a multipart form with XMLHttpRequest, whose upload events report progress (fetch cannot), with
 * the same headers and error normalisation as apiRequest. `onProgress` gets 0–100 while the bytes travel.
 */
export function uploadWithProgress<T = any>(path: string, form: FormData, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${window.location.origin}${API_BASE}${path}`);
    xhr.setRequestHeader('X-Api-Password', apiPassword());
    xhr.setRequestHeader('Accept-Language', requestLocale());
    xhr.setRequestHeader('Accept', 'application/json');
    const token = session.token();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(toHttpError(xhr.status, body));
    };
    xhr.onerror = () => reject(toHttpError(0, { message: 'ra.notification.http_error' }));
    xhr.send(form);
  });
}
