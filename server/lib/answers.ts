/**
 * The shapes of the portal's answers as JSON schemas, for the routes' `response` (the OpenAPI document,
 * and in tests every JSON answer is checked against them: plugins/answers.ts). They document and check; they
 * never shape an answer (the app serializes with plain JSON.stringify, except the few routes that opt into
 * compiled serializers, plugins/answers.ts `compileAnswer`, whose output is the same). Deliberately typed as plain
 * `JsonSchema` (not `as const`), so a handler's return value is not narrowed by the type provider.
 */
export type JsonSchema = Record<string, unknown>;

/**
 * One refused cell of a tariff upload (server/imports/errors.ts `CheckError`): in a check's `data.errors`
 * and a refused publish's (ErrorBody `data`).
 */
export const importRowError: JsonSchema = {
  type: 'object',
  required: ['row', 'column', 'message'],
  properties: {
    row: { type: 'integer', description: 'the row number as the spreadsheet shows it (1-based)' },
    column: { type: 'string', description: 'the column’s declared name (its header)' },
    message: { type: 'string', description: 'the problem as a sentence in the caller’s language' },
  },
  additionalProperties: false,
};

/** The error answer of every 4xx/5xx, registered once (`app.addSchema`) and referenced as `errorRef`. */
export const ErrorBody: JsonSchema = {
  $id: 'ErrorBody',
  title: 'ErrorBody',
  type: 'object',
  required: ['message', 'errors'],
  properties: {
    message: { type: 'string' },
    errors: { type: 'object', description: 'Field → its messages', additionalProperties: { type: 'array', items: { type: 'string' } } },
    // Only a refused tariff upload sends `data` (server/imports/errors.ts `toApiError`, the one ApiError
    // given data), so it is declared exactly; a new use of ApiError's data must be added here.
    data: {
      type: 'object',
      description: 'A refused tariff upload: `{dry_run: false, errors: [{row, column, message}]}`, the list a dry run answers',
      required: ['dry_run', 'errors'],
      properties: {
        dry_run: { type: 'boolean', const: false, description: 'false: a publish (not a check), refused; nothing was stored' },
        errors: { type: 'array', items: importRowError },
      },
      additionalProperties: false,
    },
  },
};
export const errorRef: JsonSchema = { $ref: 'ErrorBody#' };

const shared = new Map<string, JsonSchema>();
/**
 * A named shared schema (issue 33): registered once (plugins/answers.ts, like ErrorBody), it is
 * `components.schemas.<$id>` in the document and answers `{$ref: '<$id>#'}` to put in a route's schema. For
 * the branches of a oneOf with a discriminator, which redocly (and generated clients' mappings) want named.
 * Declared at import time by the route modules, before the app registers its plugins.
 */
export function sharedSchema(schema: JsonSchema & { $id: string }): JsonSchema {
  const known = shared.get(schema.$id);
  if (known && JSON.stringify(known) !== JSON.stringify(schema)) throw new Error(`shared schema ${schema.$id} declared twice, differently`);
  shared.set(schema.$id, schema);
  return { $ref: `${schema.$id}#` };
}
export const sharedSchemas = () => [...shared.values()];
/** The shared schema a `{$ref: '<$id>#'}` names (undefined for any other schema). */
export const sharedSchemaOf = (schema: JsonSchema): JsonSchema | undefined =>
  typeof schema.$ref === 'string' ? shared.get(schema.$ref.replace(/#$/, '')) : undefined;
/** A discriminator over named shared schemas: `{propertyName, mapping: {value: '#/components/schemas/<$id>'}}`. */
export const discriminatorOf = (propertyName: string, mapping: Record<string, string>) => ({
  propertyName,
  mapping: Object.fromEntries(Object.entries(mapping).map(([value, id]) => [value, `#/components/schemas/${id}`])),
});

/** The error statuses every /api/v1 route may answer (added to each route by plugins/answers.ts). */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500] as const;

const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });

export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };
/** Text or null. */
export const strN: JsonSchema = { type: ['string', 'null'] };
/** Integer or null. */
export const intN: JsonSchema = { type: ['integer', 'null'] };
/** Number or null. */
export const numN: JsonSchema = { type: ['number', 'null'] };
export const anyObject: JsonSchema = { type: 'object', additionalProperties: true };
export { nullable };

/**
 * An object with exactly these properties (all present unless listed in `optional`): closed (issue 33), so
 * an answer carrying a property its schema does not declare fails the tests' check (plugins/answers.ts) and
 * a generated client types every property it reads.
 */
export function obj(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return { type: 'object', required: Object.keys(properties).filter((k) => !optional.includes(k)), properties, additionalProperties: false };
}
/** A map from free keys (a language code, a field name) to values of one schema. */
export const mapOf = (value: JsonSchema, description?: string): JsonSchema => ({
  type: 'object',
  additionalProperties: value,
  ...(description ? { description } : {}),
});
/** An array of `item`. */
export const list = (item: JsonSchema): JsonSchema => ({ type: 'array', items: item });

/** `{status: true, message, data}`: the answer of a write (data as given; omit it for none). */
export function writeAnswer(data?: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = { status: { type: 'boolean' }, message: str };
  if (data) properties.data = data;
  return { type: 'object', required: ['status', 'message'], properties, additionalProperties: false };
}
/** `{status: true, data}`: a single record (show). */
export function dataAnswer(data: JsonSchema): JsonSchema {
  return { type: 'object', required: ['data'], properties: { status: bool, data }, additionalProperties: false };
}
/** `{status, message}` only (logout, a delete, a mail sent). */
export const okAnswer: JsonSchema = writeAnswer();

/** `{data, current_page, per_page, last_page, total}`: a page of `row` (lib/paging.ts `paginate`). */
export function pagedAnswer(row: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'current_page', 'per_page', 'last_page', 'total'],
    properties: { data: list(row), current_page: int, per_page: int, last_page: int, total: int },
    additionalProperties: false,
  };
}
const pageMeta: JsonSchema = obj({ current_page: int, per_page: int, last_page: int, total: int });
/** `{data, meta: {current_page, per_page, last_page, total}}`: the companies shape (lib/paging.ts `withMeta`). */
export function metaPaged(row: JsonSchema): JsonSchema {
  return { type: 'object', required: ['data', 'meta'], properties: { data: list(row), meta: pageMeta }, additionalProperties: false };
}
/** `{status, <key>: page of row}`: the tariff lists (`{status: true, tariffs: {...page}}`). */
export function keyedPage(key: string, row: JsonSchema): JsonSchema {
  return { type: 'object', required: [key], properties: { status: bool, [key]: pagedAnswer(row) }, additionalProperties: false };
}

/** A binary answer (a spreadsheet, a PDF, a stored file) of these content types. */
export function binaryAnswer(description: string, ...contentTypes: string[]): JsonSchema {
  return {
    description,
    content: Object.fromEntries(contentTypes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
  };
}
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * An answer with the response headers it sends (OpenAPI `headers` of the response object; @fastify/swagger
 * copies a response schema's `headers` there): name → its schema and description. Additive: the answer is
 * otherwise unchanged (issue 33).
 */
export function withHeaders(answer: JsonSchema, headers: Record<string, JsonSchema>): JsonSchema {
  return { ...answer, headers: { ...((answer.headers as Record<string, JsonSchema> | undefined) ?? {}), ...headers } };
}
/** The header of every download: the file is an attachment, with its name (ASCII, and RFC 5987 `filename*` for any other character). */
export const downloadHeaders: Record<string, JsonSchema> = {
  'Content-Disposition': {
    type: 'string',
    description:
      "Always `attachment` with the file's name in the caller's language (RFC 6266, lib/downloadNames.ts): `attachment; filename=\"<ASCII fallback>\"; filename*=UTF-8''<the exact name, RFC 5987>`",
  },
};
