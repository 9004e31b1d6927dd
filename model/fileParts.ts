/**
 * Multipart file fields, declared once for the two readers of a route's body schema (issue 33):
 *
 * - The server's validation sees the body the forms plugin made (plugins/forms.ts): a file part is an
 *   `UploadedFile` object there, so the schema says `type: 'object'` (or nothing, where the stored name may be
 *   sent back as text instead of a new file).
 *   `$comment` (an annotation, which changes nothing that is accepted) marks it as a file part.
 * - The OpenAPI document (`fileFieldsInDocument`, run on the whole document by @fastify/swagger's
 *   `transformObject`): in the `multipart/form-data` body the same field becomes what a client sends,
 *   `type: string, format: binary` with `contentMediaType`, its accepted types as the part's `encoding`, and
 *   its size limit in the description; arrays of them stay arrays. In an `application/json` body (routes that
 *   take both) a file cannot be sent: the field is dropped, or, where the stored name may come back
 *   unchanged, it is that text (or null to remove the file).
 */
type JsonSchema = Record<string, unknown>;

const MARK = 'file-part:';

export const MIME = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  csv: 'text/csv',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
} as const;

/** The multipart parser's limit on any one file part (server/app.ts); a route may set a lower one. */
export const MULTIPART_FILE_MAX = 5 * 1024 * 1024;

export const SPREADSHEET_TYPES = [MIME.xlsx, MIME.xls, MIME.ods, MIME.csv];
export const IMAGE_TYPES = [MIME.png, MIME.jpeg, MIME.webp];

/** "5 MB", "1 MB", "512 kB". */
export const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} kB`);

export interface FilePartSpec {
  /** What the file is, for the description ("The tariff table: .xlsx, .xls, .ods or .csv"). */
  what: string;
  /** The media types accepted (the part's `encoding.contentType` in the document). */
  types: readonly string[];
  /** The largest file accepted, in bytes (written into the description). */
  maxBytes: number;
  /** The field may instead carry the stored file's name or address, sent back unchanged (a form saved without a new file). */
  orStoredName?: boolean;
  /**
   * Only a file part passes validation (`type: 'object'`, the forms plugin's UploadedFile). Without it the
   * server's schema accepts any value, as these fields always have, and the route looks for a file itself
   * (anything else keeps the stored file); the document still declares a file.
   */
  fileOnly?: boolean;
}

/** The body schema of one multipart file field (see above). */
export function filePart(spec: FilePartSpec): JsonSchema {
  const description = `${spec.what}; at most ${sizeText(spec.maxBytes)}, sent as a multipart file part${
    spec.orStoredName ? ' (or the stored file name, sent back unchanged)' : ''
  }.`;
  return {
    ...(spec.fileOnly ? { type: 'object' } : {}),
    $comment: `${MARK}${spec.types.join(',')}${spec.orStoredName ? ';stored' : ''}`,
    description,
  };
}

interface Mark {
  types: string[];
  stored: boolean;
}
function markOf(s: unknown): Mark | undefined {
  const c = s && typeof s === 'object' ? (s as JsonSchema).$comment : undefined;
  if (typeof c !== 'string' || !c.startsWith(MARK)) return undefined;
  const [types, stored] = c.slice(MARK.length).split(';');
  return { types: types.split(','), stored: stored === 'stored' };
}

const binary = (s: JsonSchema, m: Mark): JsonSchema => ({
  type: 'string',
  format: 'binary',
  contentMediaType: m.types.length === 1 ? m.types[0] : 'application/octet-stream',
  description: s.description,
});

type Media = { schema?: JsonSchema; encoding?: Record<string, { contentType: string }> };

/** Rewrites one request body's media types (multipart: files as binary; JSON: no files). */
function rewriteBody(content: Record<string, Media>) {
  for (const [type, shared] of Object.entries(content)) {
    // The media types of one body share one object: each gets its own before it is rewritten.
    const media: Media = { ...shared, ...(shared.encoding ? { encoding: { ...shared.encoding } } : {}) };
    content[type] = media;
    const schema = media.schema;
    const props = schema?.properties as Record<string, JsonSchema> | undefined;
    if (!schema || !props) continue;
    const next: Record<string, JsonSchema> = {};
    let required = (schema.required as string[] | undefined) ?? [];
    for (const [name, prop] of Object.entries(props)) {
      const direct = markOf(prop);
      const item = prop.type === 'array' ? markOf(prop.items) : undefined;
      const m = direct ?? item;
      if (!m) {
        next[name] = prop;
        continue;
      }
      if (type.startsWith('multipart/')) {
        next[name] = item ? { ...prop, items: binary(prop.items as JsonSchema, m) } : binary(prop, m);
        (media.encoding ??= {})[name] = { contentType: m.types.join(', ') };
      } else if (m.stored && !item) {
        next[name] = { type: ['string', 'null'], description: 'The stored file, as its name or address, sent back unchanged (a file is sent as multipart).' };
      } else {
        required = required.filter((r) => r !== name);
      }
    }
    media.schema = { ...schema, properties: next, ...(schema.required ? { required } : {}) };
  }
}

/** @fastify/swagger's `transformObject`: every operation's file fields as a client sends them. */
export function fileFieldsInDocument(doc: Record<string, unknown>) {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, { requestBody?: { content?: Record<string, Media> } }>>)) {
    for (const op of Object.values(item)) {
      const content = op?.requestBody?.content;
      if (content) rewriteBody(content);
    }
  }
  return doc;
}

/** True when a body schema still has a file field declared the old way (for the document test). */
export const isFilePartSchema = (s: unknown) => markOf(s) !== undefined;
