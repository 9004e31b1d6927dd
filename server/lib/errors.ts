/**
 * An error the API answers with a status code and a translated `{message, errors}` body.
 * `key` is a message key of server/i18n; `errors` maps field names to message keys (with params).
 */
export type FieldErrors = Record<string, Array<{ key: string; params?: Record<string, unknown> }>>;

export class ApiError extends Error {
  /** Headers the answer carries (e.g. `Retry-After` on a 429), set by the errors plugin. */
  headers?: Record<string, string>;

  constructor(
    public statusCode: number,
    public key: string,
    public params?: Record<string, unknown>,
    public fieldErrors?: FieldErrors,
    /** Sent as the answer's `data` (e.g. a refused upload's row errors: imports/errors.ts). */
    public data?: Record<string, unknown>,
  ) {
    super(key);
  }
}

export const notFound = () => new ApiError(404, 'errors.notFound');
export const forbidden = () => new ApiError(403, 'errors.forbidden');
export const unauthenticated = () => new ApiError(401, 'errors.unauthenticated');
export const conflict = (key = 'errors.conflict', params?: Record<string, unknown>) => new ApiError(409, key, params);
export const tooMany = () => new ApiError(429, 'errors.tooManyRequests');

/** 422 with one or more field errors, e.g. `invalid({email: 'validation.unique'})`. */
export function invalid(fields: Record<string, string | { key: string; params?: Record<string, unknown> }>, key = 'errors.validation') {
  const fieldErrors: FieldErrors = {};
  for (const [field, v] of Object.entries(fields)) {
    fieldErrors[field] = [typeof v === 'string' ? { key: v, params: { field } } : { ...v, params: { field, ...v.params } }];
  }
  return new ApiError(422, key, undefined, fieldErrors);
}
