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
/**
 * 429 with `Retry-After` (issue 33: every 429 says when to come back): `waitMs` is how long until the
 * caller's counter frees a place — the rest of a fixed window (`restOfWindow`), or a sliding window's whole
 * length, the longest the oldest counted try can still count.
 */
export function tooMany(waitMs: number) {
  const err = new ApiError(429, 'errors.tooManyRequests');
  err.headers = { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) };
  return err;
}
/** What is left of the current fixed window of this length (repositories/rateLimits.ts aligns windows so). */
export const restOfWindow = (windowMs: number, now = Date.now()) => windowMs - (now % windowMs);

/** 422 with one or more field errors, e.g. `invalid({email: 'validation.unique'})`. */
export function invalid(fields: Record<string, string | { key: string; params?: Record<string, unknown> }>, key = 'errors.validation') {
  const fieldErrors: FieldErrors = {};
  for (const [field, v] of Object.entries(fields)) {
    fieldErrors[field] = [typeof v === 'string' ? { key: v, params: { field } } : { ...v, params: { field, ...v.params } }];
  }
  return new ApiError(422, key, undefined, fieldErrors);
}
