/**
 * Error normalisation for every screen (accounts document §8): any failure becomes
 * `{message, errors, status}` where `message` is the server's message or "Internal server error" and
 * `errors` maps fields to their messages (an empty object by default). Handles the shapes the portal
 * meets: react-admin's HttpError (body errors as lists or as strings), a body `{message, errors}`, a
 * success-shaped answer with `status: false`, a plain Error, a string, and nothing at all.
 */
export interface NormalizedError {
  message: string;
  errors: Record<string, string[]>;
  status?: number;
}

export const INTERNAL_ERROR = 'Internal server error';

const asList = (v: unknown): string[] => {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.flatMap(asList);
  if (typeof v === 'object') return Object.values(v as object).flatMap(asList);
  return [String(v)];
};

function readErrors(v: unknown): Record<string, string[]> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: Record<string, string[]> = {};
  for (const [field, msgs] of Object.entries(v as Record<string, unknown>)) {
    const list = asList(msgs);
    if (list.length) out[field] = list;
  }
  return out;
}

export function normalizeError(e: unknown): NormalizedError {
  if (e === null || e === undefined) return { message: INTERNAL_ERROR, errors: {} };
  if (typeof e === 'string') return { message: e || INTERNAL_ERROR, errors: {} };
  if (typeof e !== 'object') return { message: String(e), errors: {} };
  const o = e as Record<string, any>;
  const body = o.body && typeof o.body === 'object' ? o.body : undefined;
  // The field messages: a body's errors (an HttpError), or the object's own (a `{message, errors}` answer).
  const errors = readErrors(body?.errorList ?? body?.errors ?? o.errors);
  const message = [body?.message, o.message].find((m) => typeof m === 'string' && m.trim() !== '') as string | undefined;
  const status = typeof o.status === 'number' ? o.status : undefined;
  return { message: message ?? INTERNAL_ERROR, errors, status };
}

/**
 * What the error banner lists: the error's message, then the body's message when it differs, or every
 * field's messages when there are some (in field order, without repeats).
 */
export function collectMessages(e: unknown): string[] {
  const n = normalizeError(e);
  const o = (e && typeof e === 'object' ? e : {}) as Record<string, any>;
  const out: string[] = [];
  const add = (m: unknown) => {
    if (typeof m === 'string' && m.trim() && !out.includes(m)) out.push(m);
  };
  add(typeof o.message === 'string' ? o.message : n.message);
  const fields = Object.values(n.errors).flat();
  if (fields.length) fields.forEach(add);
  else add(o.body?.message ?? n.message);
  return out;
}

/** A success-shaped answer that is a refusal (`status: false`). */
export const isRefusal = (answer: unknown): boolean => !!answer && typeof answer === 'object' && (answer as any).status === false;

/** Field messages joined per field, as react-admin's forms take them (`{field: 'message'}`). */
export function formErrors(errors: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.join(' ')]));
}
