import { HttpError } from 'react-admin';

/** The server's field messages (`{field: [messages]}`) as one text per field, and its message. */
export function readApiError(err: unknown): { message: string; fields: Record<string, string> } {
  const body = err instanceof HttpError ? (err.body as { errors?: Record<string, string[]> }) : undefined;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(body?.errors ?? {})) fields[k] = Array.isArray(v) ? v.join(' ') : String(v);
  return { message: (err as Error)?.message || 'Internal server error', fields };
}

/**
 * What the form's alert should say after a failure: the server's message when it named no field, the
 * messages of fields the form does not show under an input, or nothing when every one is shown there.
 */
export function alertText(message: string, fields: Record<string, string>, shown: readonly string[]): string | null {
  const keys = Object.keys(fields);
  if (!keys.length) return message;
  const rest = keys.filter((k) => !shown.includes(k)).map((k) => fields[k]);
  return rest.length ? rest.join(' ') : null;
}
