import { fileFieldsInDocument } from '../../model/fileParts.js';

type Obj = Record<string, unknown>;
type Response = { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: Obj }> };

/** Every 429 of the API carries it (lib/errors.ts `tooMany`, the sign-in throttle, API keys, the upload pool). */
const RETRY_AFTER = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 1 },
};
/** Every file the API answers is sent as an attachment (lib/downloadNames.ts `attachment`). */
const CONTENT_DISPOSITION = {
  description:
    "Always `attachment` with the file name in the caller's language (RFC 6266): `filename=\"…\"` an ASCII fallback and `filename*=UTF-8''…` the exact name.",
  schema: { type: 'string' },
};

/** What each shared error status means (plugins/answers.ts adds them to every route as ErrorBody). */
const ERROR_MEANINGS: Record<string, string> = {
  '400': 'The body or query cannot be read (malformed JSON, multipart or parameters).',
  '401': 'The API password, the session or the API key is missing, wrong, expired or revoked.',
  '403': "The caller's role, or the API key's scopes, do not allow this operation.",
  '404': 'Not found, or not visible to the caller (another company’s records answer 404 as well).',
  '409': 'Conflicts with the stored state (a duplicate, a record still in use, a change made meanwhile).',
  '413': 'The body or a file is larger or more complex than allowed (the message gives the limit).',
  '415': 'The content type is not accepted by this operation.',
  '422': 'Some fields are refused: `errors` maps each field to its messages, in the caller’s language.',
  '429': 'Too many requests: try again after `Retry-After` seconds.',
  '500': 'An unexpected error; nothing was changed.',
};

const isBinary = (r: Response) => Object.values(r.content ?? {}).some((m) => m.schema?.format === 'binary');

/** A route's schema with the fields its handler refuses when missing added to its body's `required` (a copy). */
export function withBodyRequired(schema: Obj | undefined, names: readonly string[] | undefined): Obj | undefined {
  const body = schema?.body as Obj | undefined;
  if (!schema || !body || !names?.length) return schema;
  const required = [...new Set([...((body.required as string[] | undefined) ?? []), ...names])];
  return { ...schema, body: { ...body, required } };
}

/**
 * The last touches of the served document (@fastify/swagger's `transformObject`, issue 33), for what every
 * route shares and no route schema says: file fields as a client sends them (model/fileParts.ts), the
 * `Retry-After` of every 429 and the `Content-Disposition` of every file answer (a route that declares its own
 * headers, such as the exports' `X-Export-Rows`, keeps them).
 */
export function finishDocument(doc: Obj): Obj {
  fileFieldsInDocument(doc);
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, { responses?: Record<string, Response> }>>)) {
    for (const op of Object.values(item)) {
      const responses = op?.responses;
      if (!responses) continue;
      for (const [code, shared] of Object.entries(responses)) {
        const add: Record<string, unknown> = {};
        const meaning = shared.description === 'Default Response' ? ERROR_MEANINGS[code] : undefined;
        if (code === '429') add['Retry-After'] = RETRY_AFTER;
        if (/^2/.test(code) && isBinary(shared)) add['Content-Disposition'] = CONTENT_DISPOSITION;
        // Response objects may be shared between operations: each gets its own copy.
        if (Object.keys(add).length || meaning) {
          responses[code] = {
            ...shared,
            ...(meaning ? { description: meaning } : {}),
            ...(Object.keys(add).length ? { headers: { ...add, ...(shared.headers ?? {}) } } : {}),
          };
        }
      }
    }
  }
  return doc;
}
