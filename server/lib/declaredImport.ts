import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import AjvModule, { type ErrorObject } from 'ajv';
import formatsModule from 'ajv-formats';
import { checkBounds, choiceOf, fieldSchema, normalizeBody, uniqueFields, type FieldDef, type FieldsDecl } from '../../model/fields.js';
import { kindsOf, LANGS, storedFields, type Lang, type ResourceDecl } from '../../model/resource.js';
import type { Kind } from '../../model/roles.js';
import { TARIFF_LIMITS } from '../../model/tariffs.js';
import { SPREADSHEET_TYPES, filePart } from '../../model/fileParts.js';
import { hasMessage, registerMessages, translate } from '../i18n/index.js';
import { declaredImport as importMessages } from '../i18n/declaredImport.js';
import { ImportError, RowErrorList, answeringImportErrors, checkErrors, clipText, type RowError } from '../imports/errors.js';
import { readRows } from '../imports/read/pool.js';
import { RAW_ERROR, RAW_FALSE, RAW_ROW_NUMBER, RAW_TRUE, rawCell, type RawValue } from '../imports/read/rawCells.js';
import { HEADER_ROOM } from '../imports/read/types.js';
import { isPostgres } from '../migrations/helpers.js';
import { ajvToFieldErrors } from '../plugins/errors.js';
import { isUploadedFile, type UploadedFile } from '../plugins/forms.js';
import { OUTCOME, checkedOrPublished } from '../routes/tariffs/answers.js';
import { dryRunField } from '../routes/tariffs/dryRun.js';
import { uploadConfig } from '../routes/tariffs/tables.js';
import { attachment, downloadName } from './downloadNames.js';
import { compareDecimal } from '../pricing/money.js';
import { decimalText as groupedDecimalText, numberText } from '../imports/cells.js';
import { centsOf } from './amounts.js';
import { binaryAnswer, bool, downloadHeaders, int, importRowError, list, mapOf, obj, strN, withHeaders, writeAnswer, XLSX } from './answers.js';
import { invalid } from './errors.js';
import { CSV_TYPE, csvField, csvStyle } from './listExport.js';
import { companyExists, referenceTarget, resolveReferences, tenantOf, uniqueHolders } from './declaredScope.js';
import { moneyCents, moneyEuros } from './declaredValues.js';
import { nowIso } from './tokens.js';
import type { App } from './typed.js';
import { xlsxChunks } from './xlsxWriter.js';

/**
 * The import of a declared resource from a spreadsheet (issue 34; docs/adding-a-resource.md): for a
 * declaration with `import: true`, each kind that may create gets
 *
 * - `POST {api}/import`, multipart `file` (.xlsx/.xls/.ods/.csv), `dry_run` 0|1 and, for an admin on a
 *   company-tenancy resource, `company_id` (required: a write never guesses its tenant). `dry_run=1` answers
 *   what a publish would do (`outcome: 'checked'`: the refused cells, the summary, the first changes); without
 *   it the file is applied in one transaction (`outcome: 'published'`), or refused 422 with the same list of
 *   refused cells and nothing stored.
 * - `GET {api}/import/template?format=xlsx|csv`: a file whose header row is the fields' labels in the
 *   caller's language.
 *
 * How a file is read:
 * - through the tariffs' bounded reader (imports/read/pool.ts `readRows`: a worker thread, the same size and
 *   content limits, the same refusals of a wrong type or a bomb, in the caller's language), asked for the raw
 *   cells (read/rawCells.ts): the columns are found here, by header;
 * - a column's header is the field's name or its label in it, en or fr, case, spaces and underscores aside;
 *   the header row is the one among the top rows naming the most fields. Other columns are ignored (an export
 *   of the list, with its extra columns, imports back). A required field without a default must have its
 *   column; an absent optional column leaves the field as it is (a change) or its default (an addition);
 * - each cell is turned into the value a store body would carry (`cellValue`), then checked by the same rules
 *   as the store route: `normalizeBody` (trim, upper case, e-mails in lower case), the field's JSON schema
 *   (`fieldSchema`: lengths, patterns, bounds, formats, choices) with the messages the store gives, `checkBounds`
 *   for decimals, required fields, unique values (per company with `tenancy: 'company'`, also between rows of
 *   the file) and references (an id or the referenced row's display text — its `optionText` or its name in
 *   any language, declaredScope.ts `languageColumns` — of the same company when the referenced resource is
 *   company-owned);
 * - rows are matched to the stored ones by the first unique field whose column is there (case aside, as the
 *   store's unique check): matched → changed or unchanged, else added. Without a unique field every row is added.
 *
 * Money is in euros in the file (a decimal comma or point) and in integer cents in the table.
 *
 * The caller's company, a reference's target and lookup, the unique match and money in cents are the
 * generated routes' own (declaredScope.ts, declaredValues.ts), so a row imported is checked as a row stored;
 * the lookups here are their batch forms (one query per column and slice, not one per row).
 */

registerMessages(importMessages);

type Row = Record<string, unknown>;
type Db = any;
type Problem = { key: string; params?: Record<string, unknown> };

/** The multipart field of the file. */
export const IMPORT_FILE_FIELD = 'file';
/** At most this many changes are listed in a check (the summary counts them all). */
export const LISTED_CHANGES = 200;

// ---- Answers ---------------------------------------------------------------------------------------------

/**
 * A value of a field in a change: as the resource's answers carry it (money in euros, a reference's id, a
 * flag '0'/'1', a decimal as its text). The answer schemas are one pair for every resource (named schemas
 * must be registered before the app is built, which a test's extra resources are not), so a field's value is
 * any of these types; each field's own type is its row schema's, in the same resource's list and show.
 */
const fieldValue = { type: ['string', 'number', 'boolean', 'null'], description: 'the value as the resource’s answers carry it (money in euros)' };
const countsSchema = obj({ added: int, changed: int, unchanged: int });
const checkAnswer = obj({
  status: bool,
  data: obj({
    errors: { ...list(importRowError), description: 'The refused cells, in row order (empty: the file can be published)' },
    summary: { ...countsSchema, description: 'What a publish would do: rows added, changed, unchanged' },
    changes: {
      ...list(
        obj({
          row: { ...int, description: 'the row number as the spreadsheet shows it' },
          action: { type: 'string', enum: ['add', 'change'], description: '`add`: a new row; `change`: a stored row matched by its unique field' },
          key: { ...strN, description: 'the value of the unique field that identifies the row (null: the resource has none)' },
          fields: mapOf(obj({ before: fieldValue, after: fieldValue }), 'field name → its stored value (null for an added row) and the file’s'),
        }),
      ),
      description: `The added and changed rows in file order (at most ${LISTED_CHANGES})`,
    },
  }),
});
const publishAnswer = writeAnswer(countsSchema);
/** `outcome: 'checked' | 'published'`, like the tariff stores (routes/tariffs/answers.ts). */
const IMPORT_ANSWER = checkedOrPublished('DeclaredImport', checkAnswer, publishAnswer);
const TEMPLATE_ANSWER = withHeaders(binaryAnswer('The import template: a header row of the field labels', XLSX, CSV_TYPE), downloadHeaders);

const fileField = filePart({
  what: 'The rows as a spreadsheet: .xlsx, .xls, .ods or .csv, the header row naming the fields (names or labels)',
  types: SPREADSHEET_TYPES,
  maxBytes: TARIFF_LIMITS.fileBytes,
  fileOnly: true,
});

// ---- Declarations ----------------------------------------------------------------------------------------

/** The fields a file may set: the stored ones a form writes (no read-only ones, no images, files or passwords). */
export function importFields(decl: ResourceDecl): Array<[string, FieldDef]> {
  return storedFields(decl).filter(([, f]) => !f.readOnly && f.type !== 'image' && f.type !== 'file' && f.type !== 'password');
}

/** Header text without case, spaces or underscores ("Nome luogo", "nome_luogo" and "NOMELUOGO" are one). */
const headerKey = (s: string) =>
  s
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s_]+/g, '');

/** A field's label in a language. */
const labelOf = (decl: ResourceDecl, field: string, lang: Lang) => decl.fieldLabels[lang]?.[field] ?? field;

/** Which field each header text names: field names first, then the labels in it, en, fr (the first wins). */
function headerIndex(decl: ResourceDecl): Map<string, string> {
  const byKey = new Map<string, string>();
  const fields = importFields(decl).map(([n]) => n);
  for (const name of fields) byKey.set(headerKey(name), name);
  for (const l of LANGS) for (const name of fields) if (!byKey.has(headerKey(labelOf(decl, name, l)))) byKey.set(headerKey(labelOf(decl, name, l)), name);
  return byKey;
}

// ---- Cells -----------------------------------------------------------------------------------------------

type CellResult = { ok: true; value: unknown } | ({ ok: false } & Problem);
const ok = (value: unknown): CellResult => ({ ok: true, value });
const bad = (key: string, params?: Record<string, unknown>): CellResult => ({ ok: false, key, params });

/**
 * Decimal text from a text cell as the tariffs read it (imports/cells.ts): `12,50` (a decimal comma), `€ 12.50`,
 * grouped thousands with the other mark as decimal (`1.234,50`, `1,234.50`), a leading `+`. Undefined when not a number.
 */
function decimalText(s: string): string | undefined {
  const t = groupedDecimalText(s).replace(/^\+/, '');
  return /^-?\d+(\.\d+)?$/.test(t) ? t : undefined;
}

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const pad = (n: number) => String(n).padStart(2, '0');
/** A real calendar day as YYYY-MM-DD, or undefined. */
function isoDay(y: number, m: number, d: number): string | undefined {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (y < 1000 || y > 9999 || t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}
/** A spreadsheet's serial day (a date cell; a time of day is dropped) as YYYY-MM-DD. */
function serialDay(n: number): string | undefined {
  if (!(n >= 1 && n < 2_958_466)) return undefined;
  const t = new Date(EXCEL_EPOCH + Math.floor(n) * 86_400_000);
  return isoDay(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}
/** A date as text: YYYY-MM-DD, or DD/MM/YYYY (DD.MM.YYYY, DD-MM-YYYY) as the exports write it. */
function textDay(s: string): string | undefined {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  return m ? isoDay(Number(m[3]), Number(m[2]), Number(m[1])) : undefined;
}

/** Yes and no as people write them in it, en and fr, and as the exports write flags and booleans. */
const YES_NO: Map<string, boolean> = (() => {
  const m = new Map<string, boolean>();
  for (const w of ['1', 'true', 'yes', 'y', 'sì', 'si', 's', 'vero', 'oui', 'o', 'vrai', 'x']) m.set(w, true);
  for (const w of ['0', 'false', 'no', 'n', 'falso', 'non', 'faux']) m.set(w, false);
  for (const l of LANGS) {
    for (const [key, v] of [
      ['export.active', true],
      ['export.inactive', false],
      ['export.yes', true],
      ['export.no', false],
    ] as const) {
      if (hasMessage(key)) m.set(translate(l, key).toLowerCase(), v);
    }
  }
  return m;
})();

/** A select's choices with every text that names each: its id, its label in it, en, fr. */
function choiceNames(f: FieldDef) {
  return (f.options ?? []).map(choiceOf).map((c) => ({
    id: c.id,
    names: new Set([String(c.id), ...LANGS.map((l) => (hasMessage(c.name) ? translate(l, c.name) : c.name))].map(headerKey)),
  }));
}
const choiceLabel = (f: FieldDef, lang: Lang) =>
  (f.options ?? [])
    .map(choiceOf)
    .map((c) => (hasMessage(c.name) ? translate(lang, c.name) : c.name))
    .join(', ');

/**
 * One cell as the value a store body would carry for the field (before `normalizeBody` and the schema):
 * text as text (a number cell as its digits), integers and money as numbers (money in euros, at most
 * cents), decimals as exact text, dates as YYYY-MM-DD (a date cell or text), months as YYYY-MM, flags
 * '1'/'0' and booleans from yes/no words in three languages, a select's id from its id or label. A
 * reference is left as written (resolved against the database afterwards). null: an empty cell.
 */
export function cellValue(f: FieldDef, raw: RawValue, lang: Lang): CellResult {
  if (raw === null) return ok(null);
  if (raw === RAW_ERROR) return bad('import.cellError');
  const flag = raw === RAW_TRUE ? true : raw === RAW_FALSE ? false : undefined;
  const shown = flag === undefined ? clipText(typeof raw === 'number' ? numberText(raw) : raw) : String(flag);
  switch (f.type) {
    case 'text':
    case 'email':
    case 'url':
    case 'password':
    case 'image':
    case 'file':
      if (flag !== undefined) return bad('import.text', { value: shown });
      return ok(typeof raw === 'number' ? numberText(raw) : raw);
    case 'integer': {
      const t = typeof raw === 'number' ? numberText(raw) : flag === undefined ? decimalText(raw) : undefined;
      if (t === undefined || !/^-?\d+(\.0+)?$/.test(t) || Math.abs(Number(t)) > 1e15) return bad('import.integer', { value: shown });
      return ok(Number(t.split('.')[0]));
    }
    case 'decimal':
    case 'money': {
      const t = typeof raw === 'number' ? numberText(raw) : flag === undefined ? decimalText(raw) : undefined;
      if (t === undefined || t.replace(/^-/, '').split('.')[0].length > 15) return bad('import.number', { value: shown });
      if (f.type === 'decimal') return ok(t);
      // Money: euros with at most cents (a finer amount is refused, never rounded away without a word).
      if (moneyCents(t) === undefined) return bad('declaredImport.cents', { value: shown });
      return ok(Number(t));
    }
    case 'date': {
      const d = typeof raw === 'number' ? serialDay(raw) : flag === undefined ? textDay(raw) : undefined;
      return d ? ok(d) : bad('declaredImport.date', { value: shown });
    }
    case 'month': {
      // A date cell (its month), YYYY-MM, MM/YYYY as the exports write it, or a whole date.
      let d: string | undefined;
      if (typeof raw === 'number') d = serialDay(raw)?.slice(0, 7);
      else if (flag === undefined) {
        const iso = /^(\d{4})-(\d{1,2})$/.exec(raw);
        const shownMonth = /^(\d{1,2})[/.-](\d{4})$/.exec(raw);
        const [y, mo] = iso ? [iso[1], Number(iso[2])] : shownMonth ? [shownMonth[2], Number(shownMonth[1])] : ['', 0];
        d = y && mo >= 1 && mo <= 12 ? `${y}-${pad(mo)}` : textDay(raw)?.slice(0, 7);
      }
      return d ? ok(d) : bad('declaredImport.month', { value: shown });
    }
    case 'flag':
    case 'boolean': {
      const v = flag ?? YES_NO.get(String(typeof raw === 'number' ? numberText(raw) : raw).toLowerCase());
      if (v === undefined) return bad('declaredImport.flag', { value: shown });
      return ok(f.type === 'flag' ? (v ? '1' : '0') : v);
    }
    case 'select': {
      const key = headerKey(typeof raw === 'number' ? numberText(raw) : String(flag ?? raw));
      const found = choiceNames(f).find((c) => c.names.has(key));
      return found ? ok(found.id) : bad('declaredImport.choice', { value: shown, values: choiceLabel(f, lang) });
    }
    case 'reference':
      if (flag !== undefined) return bad('import.text', { value: shown });
      return ok(typeof raw === 'number' ? numberText(raw) : raw);
  }
}

// ---- The store's rules, per row ------------------------------------------------------------------------

const Ajv = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule;
const addFormats = (formatsModule as unknown as { default?: typeof formatsModule }).default ?? formatsModule;
/** Fastify's own options for bodies (app.ts), without coercion or defaults: the values are typed already. */
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
addFormats(ajv);

/**
 * The checks of the store route on one row's values (its fields present in the file): the fields' JSON
 * schemas (as `bodySchemas` builds them for the store, `required` checked by the caller) and `checkBounds`;
 * answers the problems by field, with the store's message keys and params.
 */
function rowChecker(fields: FieldsDecl) {
  const properties = Object.fromEntries(Object.entries(fields).map(([n, f]) => [n, fieldSchema(f, { withDefault: false })]));
  const validate = ajv.compile({ type: 'object', properties });
  return (values: Row, req: Pick<FastifyRequest, 't'>): Record<string, Problem> => {
    const problems: Record<string, Problem> = {};
    if (!validate(values)) {
      const byField = ajvToFieldErrors((validate.errors ?? []) as ErrorObject[] as never);
      for (const [field, list] of Object.entries(byField)) {
        const e = list[0];
        const params = { ...e.params };
        if (params.typeKey) params.type = req.t(String(params.typeKey));
        if (params.formatKey) params.format = req.t(String(params.formatKey));
        problems[field] = { key: e.key, params };
      }
    }
    for (const [field, p] of Object.entries(checkBounds(fields, values))) problems[field] ??= p;
    return problems;
  };
}

// ---- Reading a file --------------------------------------------------------------------------------------

interface FileRow {
  /** the row number as the spreadsheet shows it */
  row: number;
  /** the values of the fields whose columns are there (null: an empty cell) */
  values: Row;
  /** a cell of the row was refused */
  failed: boolean;
}

interface ReadFile {
  /** field → the header text of its column in the file */
  headers: Map<string, string>;
  rows: FileRow[];
  errors: RowErrorList;
}

/**
 * Reads the file in the reading pool (the tariffs' limits and refusals), finds the header row and the
 * fields' columns, and turns every cell into its field's value; cell problems are collected, not thrown.
 * Throws an ImportError for the file itself (unreadable, no header, a required column missing, no rows).
 */
async function readDeclaredFile(decl: ResourceDecl, file: UploadedFile, tenant: string | number, lang: Lang): Promise<ReadFile> {
  const raw = await readRows(tenant, { data: file.data, fileName: file.filename, raw: true });
  const index = headerIndex(decl);
  const fields = Object.fromEntries(importFields(decl));
  // The header row: among the top rows (at most ten non-empty ones, within the reader's room for a title),
  // the one naming the most fields; the first of equals.
  let headerAt = -1;
  let best = 0;
  for (let i = 0; i < Math.min(raw.length, 10) && Number(raw[i][RAW_ROW_NUMBER]) <= HEADER_ROOM + 1; i++) {
    const named = new Set<string>();
    for (const [k, v] of Object.entries(raw[i]))
      if (k !== RAW_ROW_NUMBER && typeof v === 'string' && index.has(headerKey(v))) named.add(index.get(headerKey(v))!);
    if (named.size > best) {
      best = named.size;
      headerAt = i;
    }
  }
  const expected = importFields(decl)
    .map(([n]) => labelOf(decl, n, lang))
    .join(', ');
  if (headerAt < 0) throw new ImportError(422, 'import.noHeader', { expected });
  const columns = new Map<string, number>();
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(raw[headerAt])) {
    if (k === RAW_ROW_NUMBER || typeof v !== 'string') continue;
    const field = index.get(headerKey(v));
    if (!field) continue; // another column (an export's extras): ignored
    if (columns.has(field)) throw new ImportError(422, 'import.duplicateHeader', { column: v });
    columns.set(field, Number(k));
    headers.set(field, v);
  }
  const missing = importFields(decl)
    .filter(([n, f]) => f.required && f.default === undefined && !columns.has(n))
    .map(([n]) => labelOf(decl, n, lang));
  if (missing.length) throw new ImportError(422, 'import.missingHeaders', { columns: missing.join(', '), expected });

  const errors = new RowErrorList();
  const rows: FileRow[] = [];
  for (let i = headerAt + 1; i < raw.length; i++) {
    const cells = raw[i];
    const row = Number(cells[RAW_ROW_NUMBER]);
    if ([...columns.values()].every((c) => rawCell(cells, c) === null)) continue; // data in other columns only
    const values: Row = {};
    let failed = false;
    for (const [field, c] of columns) {
      const res = cellValue(fields[field], rawCell(cells, c), lang);
      if (res.ok) values[field] = res.value;
      else {
        failed = true;
        errors.push({ row, column: headers.get(field)!, key: res.key, params: res.params });
      }
    }
    rows.push({ row, values, failed });
  }
  if (!rows.length) throw new ImportError(422, 'import.noRows');
  return { headers, rows, errors };
}

// ---- The plan: what a publish does ---------------------------------------------------------------------

interface Change {
  row: number;
  action: 'add' | 'change';
  key: string | null;
  fields: Record<string, { before: unknown; after: unknown }>;
}

interface Plan {
  errors: RowErrorList;
  adds: Row[];
  updates: Array<{ id: number; set: Row }>;
  summary: { added: number; changed: number; unchanged: number };
  changes: Change[];
}

/** A value in the table's terms: money in cents, booleans 1/0; the rest as the body carries it. */
function columnOf(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (f.type === 'money') return centsOf(Number(v));
  if (f.type === 'boolean') return v ? 1 : 0;
  return v;
}
/** A stored value as the answers carry it: money in euros; the rest as stored. */
function answerOf(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (f.type === 'money') return moneyEuros(v);
  if (f.type === 'boolean') return Boolean(Number(v));
  if (f.type === 'integer' || f.type === 'reference') return Number(v);
  return v;
}
/** Whether a stored value and a new one (both in the table's terms) are the same. */
function same(f: FieldDef, stored: unknown, next: unknown): boolean {
  if (stored === null || stored === undefined || next === null || next === undefined) return (stored ?? null) === (next ?? null);
  if (f.type === 'decimal') return compareDecimal(String(stored), String(next)) === 0;
  if (f.type === 'money' || f.type === 'integer' || f.type === 'reference' || f.type === 'boolean') return Number(stored) === Number(next);
  return String(stored) === String(next);
}

/**
 * What publishing the file would do for a company, read on `db` (the transaction, for a publish): each row
 * checked by the store's rules, its references resolved, matched to a stored row by the first unique field
 * present; the rows to add and the changes to make, the summary, the first LISTED_CHANGES changes.
 */
async function planImport(
  db: Db,
  decl: ResourceDecl,
  all: readonly ResourceDecl[],
  file: ReadFile,
  companyId: number | null,
  req: FastifyRequest,
): Promise<Plan> {
  const fields = Object.fromEntries(importFields(decl)) as FieldsDecl;
  const present = [...file.headers.keys()];
  const column = (f: string) => file.headers.get(f)!;
  const errors = file.errors;
  const failed = new Set(file.rows.filter((r) => r.failed).map((r) => r.row));
  const fail = (row: number, field: string, p: Problem) => {
    failed.add(row);
    errors.push({ row, column: column(field), key: p.key, params: p.params } satisfies RowError);
  };

  // The store's rules on each row whose cells were all read (a refused cell stops its row there). An empty
  // cell of a field with a default is a value not given (as a store body without it): the default on an
  // addition, the stored value kept on a change; of another optional field, it empties the field.
  const check = rowChecker(Object.fromEntries(present.map((f) => [f, fields[f]])));
  const rows = file.rows.filter((r) => !failed.has(r.row));
  const references = present.filter((n) => fields[n].type === 'reference');
  for (const r of rows) {
    normalizeBody(fields, r.values);
    for (const f of present) {
      if (r.values[f] !== undefined && r.values[f] !== null) continue;
      if (fields[f].required && fields[f].default === undefined) fail(r.row, f, { key: 'validation.required', params: { field: column(f) } });
      if (fields[f].required || fields[f].default !== undefined) delete r.values[f];
    }
    // A reference is still text here: it stands as a valid id for the schema, its row is looked up below.
    const typed = { ...r.values, ...Object.fromEntries(references.filter((f) => r.values[f] != null).map((f) => [f, 1])) };
    for (const [f, p] of Object.entries(check(typed, req))) fail(r.row, f, p);
  }

  // References: every distinct text of a column resolved at once (also on rows refused above: all is said at once).
  for (const f of references) {
    const texts = [...new Set(rows.filter((r) => r.values[f] != null).map((r) => String(r.values[f])))];
    const ids = await resolveReferences(db, referenceTarget(decl, f, all), fields[f].reference!.optionText, texts, companyId);
    for (const r of rows) {
      if (r.values[f] == null) continue;
      const text = String(r.values[f]);
      const id = ids.get(text) ?? ids.get(text.toLowerCase());
      if (id) r.values[f] = id;
      else
        fail(r.row, f, {
          key: id === 0 ? 'declaredImport.referenceAmbiguous' : 'declaredImport.reference',
          params: { value: clipText(text), what: column(f) },
        });
    }
  }

  // Unique fields: between the file's rows, and against the stored ones (of the company).
  const unique = uniqueFields(fields).filter((f) => present.includes(f));
  const keyField = unique[0];
  const holders = new Map<string, Map<string, Row>>();
  for (const f of unique) {
    const firstRow = new Map<string, number>();
    for (const r of rows) {
      const v = r.values[f];
      if (failed.has(r.row) || v === null || v === undefined) continue;
      const k = String(v).toLowerCase();
      const first = firstRow.get(k);
      if (first !== undefined) fail(r.row, f, { key: 'declaredImport.duplicate', params: { column: column(f), value: clipText(String(v)), first } });
      else firstRow.set(k, r.row);
    }
    holders.set(f, await uniqueHolders(db, decl, f, [...firstRow.keys()], companyId));
  }

  const plan: Plan = { errors, adds: [], updates: [], summary: { added: 0, changed: 0, unchanged: 0 }, changes: [] };
  // An addition's columns: those of the file and the defaulted fields, the same for every row (one multi-row insert).
  const addColumns = importFields(decl).filter(([n, f]) => present.includes(n) || f.default !== undefined);
  for (const r of rows) {
    if (failed.has(r.row)) continue;
    const key = keyField ? String(r.values[keyField] ?? '') : '';
    const stored = keyField && key ? holders.get(keyField)!.get(key.toLowerCase()) : undefined;
    let taken = false;
    for (const f of unique) {
      const v = r.values[f];
      const holder = v === null || v === undefined ? undefined : holders.get(f)!.get(String(v).toLowerCase());
      if (holder && Number(holder.id) !== Number(stored?.id)) {
        taken = true;
        fail(r.row, f, { key: 'validation.uniqueRow', params: { field: column(f), value: String(holder[f]) } });
      }
    }
    if (taken) continue;
    if (!stored) {
      const values: Row = {};
      for (const [n, f] of addColumns) {
        const v = n in r.values ? r.values[n] : f.default === undefined ? null : f.type === 'boolean' ? Boolean(f.default) : f.default;
        values[n] = columnOf(f, v);
      }
      plan.adds.push(values);
      plan.summary.added++;
      if (plan.changes.length < LISTED_CHANGES) {
        plan.changes.push({
          row: r.row,
          action: 'add',
          key: keyField ? key : null,
          fields: Object.fromEntries(Object.entries(values).map(([n, v]) => [n, { before: null, after: answerOf(fields[n], v) }])),
        });
      }
      continue;
    }
    const set: Row = {};
    const diff: Change['fields'] = {};
    for (const f of present) {
      if (!(f in r.values)) continue; // a defaulted field left empty: kept
      const next = columnOf(fields[f], r.values[f]);
      if (same(fields[f], stored[f], next)) continue;
      set[f] = next;
      diff[f] = { before: answerOf(fields[f], stored[f]), after: answerOf(fields[f], next) };
    }
    if (!Object.keys(set).length) {
      plan.summary.unchanged++;
      continue;
    }
    plan.updates.push({ id: Number(stored.id), set });
    plan.summary.changed++;
    if (plan.changes.length < LISTED_CHANGES) plan.changes.push({ row: r.row, action: 'change', key, fields: diff });
  }
  return plan;
}

/** Applies a plan in the transaction: additions in multi-row inserts (with the company and the time), then each change. */
async function applyPlan(trx: Db, decl: ResourceDecl, plan: Plan, companyId: number | null) {
  const fixed: Row = {};
  if (decl.tenancy === 'company') fixed.company_id = companyId;
  if (decl.timestamps) fixed.created_at = nowIso();
  const rows = plan.adds.map((r) => ({ ...r, ...fixed }));
  const width = Math.max(1, Object.keys(rows[0] ?? {}).length);
  const batch = Math.max(1, Math.floor(30_000 / width));
  for (let i = 0; i < rows.length; i += batch)
    await trx
      .insertInto(decl.table)
      .values(rows.slice(i, i + batch))
      .execute();
  for (const u of plan.updates) {
    let qb = trx.updateTable(decl.table).set(u.set).where('id', '=', u.id);
    if (decl.tenancy === 'company') qb = qb.where('company_id', '=', companyId);
    await qb.execute();
  }
}

// ---- The caller's company --------------------------------------------------------------------------------

/**
 * The company an import writes into: none for a resource that is not company-owned; the caller's own company
 * for every kind but admin (`tenantOf`, as the other routes; a `company_id` it sends was dropped by the body
 * schema); for an admin the `company_id` of the body, required and an existing company (422 otherwise).
 */
async function importCompanyOf(db: Db, req: FastifyRequest, decl: ResourceDecl, bodyCompanyId: unknown): Promise<number | null> {
  if (decl.tenancy !== 'company') return null;
  const own = tenantOf(req, decl);
  if (own !== null) return own;
  if (bodyCompanyId === undefined || bodyCompanyId === null) throw invalid({ company_id: 'validation.required' });
  if (!(await companyExists(db, Number(bodyCompanyId)))) throw invalid({ company_id: 'validation.exists' });
  return Number(bodyCompanyId);
}

/** The uploaded file of the `file` field, or a 422 naming it. */
function importFile(body: Row): UploadedFile {
  const v = body[IMPORT_FILE_FIELD];
  const file = Array.isArray(v) ? v[0] : v;
  if (!isUploadedFile(file)) throw invalid({ [IMPORT_FILE_FIELD]: 'validation.required' });
  return file;
}

/** A race past the plan ends in the unique index: the file is refused as a whole (nothing was stored). */
const isUniqueViolation = (err: unknown) => /unique|duplicate/i.test(String((err as Error)?.message ?? ''));

// ---- The routes ------------------------------------------------------------------------------------------

/**
 * The import routes of a declared resource for one kind (`path`: its `api` entry), when the declaration has
 * `import: true` and the kind may create: `POST {path}/import` and `GET {path}/import/template`. Called by
 * resourceRoutes for every kind of every generated resource; `all`: every declared resource of the app (the
 * targets of references), as resourceRoutes has it.
 */
export function declaredImportRoutes(app: App, decl: ResourceDecl, all: readonly ResourceDecl[], kind: Kind, path: string): void {
  if (!decl.import || !kindsOf(decl, 'create').includes(kind)) return;

  const db = app.db as Db;
  const ns = path.split('/')[1];
  const many = decl.labels.en.many.toLowerCase();
  const tag = decl.name;
  const adminNamesCompany = kind === 'admin' && decl.tenancy === 'company';
  const config = { policy: [kind], resource: decl.name, action: 'create' as const };
  const body = Type.Unsafe<{ company_id?: number; dry_run?: 0 | 1 } & Row>({
    type: 'object',
    additionalProperties: false,
    properties: {
      ...(adminNamesCompany ? { company_id: { type: 'integer', minimum: 1, description: 'The company whose rows the file holds' } } : {}),
      dry_run: dryRunField,
      [IMPORT_FILE_FIELD]: fileField,
    },
  });

  app.post(
    `${path}/import`,
    {
      // The tariff uploads' limits (the same body limit and bounded reader); the file, and the company when an admin imports, are required (checked by the handler).
      config: { ...config, ...uploadConfig, bodyRequired: [...(adminNamesCompany ? ['company_id'] : []), IMPORT_FILE_FIELD] },
      schema: {
        tags: [tag],
        summary: `Checks (dry_run=1) or imports ${many} from a spreadsheet, adding new rows and changing those matched by their unique field (${ns})`,
        consumes: ['multipart/form-data'],
        body,
        response: { 200: IMPORT_ANSWER },
      },
    },
    async (req) => {
      const input = req.body;
      const companyId = await importCompanyOf(db, req, decl, input.company_id);
      const file = importFile(input);
      // Read in the pool on behalf of the company (its fair share of the reading threads), or of the caller.
      const tenant = companyId ?? `user:${req.user!.id}`;
      const read = await answeringImportErrors(req, IMPORT_FILE_FIELD, () => readDeclaredFile(decl, file, tenant, req.lang as Lang));
      if (input.dry_run === 1) {
        const plan = await planImport(db, decl, all, read, companyId, req);
        req.auditNothing(); // a check writes nothing
        return {
          outcome: OUTCOME.checked,
          status: true,
          data: { errors: checkErrors(req, plan.errors.listed()), summary: plan.summary, changes: plan.changes },
        };
      }
      const summary = await answeringImportErrors(req, IMPORT_FILE_FIELD, async () => {
        try {
          return await db.transaction().execute(async (trx: Db) => {
            // One import of a company at a time on PostgreSQL (SQLite runs one write transaction at a time).
            if (companyId !== null && isPostgres(trx)) await sql`select id from companies where id = ${companyId} for update`.execute(trx);
            // Planned again inside the transaction, so what is applied is what the rows are now.
            const plan = await planImport(trx, decl, all, read, companyId, req);
            if (plan.errors.length) throw new ImportError(422, 'import.badRows', {}, plan.errors);
            await applyPlan(trx, decl, plan, companyId);
            return plan.summary;
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw new ImportError(409, 'declaredImport.conflict');
          throw err;
        }
      });
      req.audit({
        action: 'import',
        resource: decl.table,
        company_id: companyId,
        changes: {
          file: { before: null, after: file.filename },
          added: { before: null, after: summary.added },
          changed: { before: null, after: summary.changed },
          unchanged: { before: null, after: summary.unchanged },
        },
      });
      return {
        outcome: OUTCOME.published,
        status: true,
        message: req.t('declaredImport.published', { added: summary.added, changed: summary.changed }),
        data: summary,
      };
    },
  );

  app.get(
    `${path}/import/template`,
    {
      config,
      schema: {
        tags: [tag],
        summary: `Downloads the import template of ${many}: a header row of the field labels in the caller’s language (${ns})`,
        querystring: Type.Unsafe<{ format: 'xlsx' | 'csv' }>({
          type: 'object',
          additionalProperties: false,
          properties: { format: { type: 'string', enum: ['xlsx', 'csv'], default: 'xlsx' } },
        }),
        response: { 200: TEMPLATE_ANSWER },
      },
    },
    async (req, reply) => {
      const lang = req.lang as Lang;
      const labels = importFields(decl).map(([n]) => labelOf(decl, n, lang));
      const name = downloadName.template(lang, decl.labels[lang].many, req.query.format);
      reply.header('content-disposition', attachment(name)).header('cache-control', 'no-store');
      if (req.query.format === 'csv') {
        // The exports' CSV (lib/listExport.ts): a BOM, `;` in Italian and French, `,` in English.
        return reply.type(CSV_TYPE).send('\uFEFF' + labels.map(csvField).join(csvStyle(lang).delimiter) + '\r\n');
      }
      const rows = (async function* () {
        yield [labels.map((v) => ({ t: 's' as const, v }))];
      })();
      const widths = labels.map((l) => Math.max(12, l.length + 2));
      return reply
        .type(XLSX)
        .send(Readable.from(xlsxChunks({ sheetName: decl.labels[lang].many.slice(0, 31).replace(/[:\\/?*[\]]/g, '_') || 'data', widths, formats: [], rows })));
    },
  );
}
