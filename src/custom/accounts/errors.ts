import { normalizeError } from '../../components/feedback/errors';

/** An email address as the account forms accept it. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A failed call (normalised once, by the shared helper) as the account forms show it: the message,
 * translated when it is a key (a network failure), and one text per field under its input.
 */
export function readApiError(err: unknown, translate?: (key: string, opts?: any) => string): { message: string; fields: Record<string, string> } {
  const { message, errors } = normalizeError(err);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) fields[k] = v.join(' ');
  return { message: translate ? translate(message, { _: message }) : message, fields };
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
