/**
 * Malformed input for any route, generated from its schema (or generically without one) by a seeded
 * generator: no dependency, a small PRNG (mulberry32), so a failing case is reproduced from the seed
 * and the route alone (`FUZZ_SEED=… FUZZ_ROUTE='POST /api/v1/…'`).
 */
import type { FastifySchema } from 'fastify';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, any>;

/** mulberry32: a 32-bit seeded PRNG, good enough to spread cases, fully reproducible. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number) {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  chance(p: number) {
    return this.next() < p;
  }
}

/** A stable 32-bit hash of a string (the route's share of the seed). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const HUGE = 'x'.repeat(100_000);
/** Strings nobody should type, but anyone can send. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  HUGE,
  'é'.repeat(20_000),
  '\u0000',
  'a\u0000b',
  '\u202Eevil\u0007\b\u001b[31m',
  '😀'.repeat(300),
  '\uD800',
  '\uFFFF\uFFFE',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "'); DELETE FROM companies; --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '%',
  '_',
  '%_\\',
  '\\',
  '../../etc/passwd',
  '..\\..\\win.ini',
  '{{7*7}}',
  '${7*7}',
  '1e400',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '99999999999999999999',
  '-99999999999999999999',
  '2147483648',
  '9223372036854775808',
  '1.5',
  '2024-02-30',
  '9999-99-99',
  '0000-00-00',
  '2024-13-01T25:61:61Z',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'a@',
  '@b.c',
  'x'.repeat(255) + '@x.test',
];
/** Numbers at and past every edge (JSON cannot carry NaN or Infinity: those go as raw text below). */
/* eslint-disable no-loss-of-precision -- past 2^53 on purpose: they round, as in any JavaScript client */
export const NASTY_NUMBERS = [
  0, -1, -0.5, 1.5, 2147483647, 2147483648, -2147483649, 4294967296, 9007199254740993, 1e20, 99999999999999999999, 1e308, -1e308, 5e-324,
];
/* eslint-enable no-loss-of-precision */
const deep = (depth: number): Json => {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};
const deepArray = (depth: number): Json => {
  let v: Json = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
/** Values of the wrong shape for any field. */
export const NASTY_SHAPES: Json[] = [
  null,
  true,
  false,
  [],
  [1, 2, 3],
  ['a', null],
  {},
  { id: 1 },
  deep(50),
  deepArray(50),
  Array.from({ length: 5000 }, (_, i) => i),
  [[[[['x']]]]],
  { $gt: '' },
  { __proto__x: 1 },
];

/** Raw bodies that are not JSON (or are hostile JSON), sent as application/json. */
export const BROKEN_JSON = [
  '{',
  '[',
  '{"a":',
  '{"a":1}}',
  'nul',
  'undefined',
  '{a:1}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1,}',
  '\u0000',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '"just a string"',
  '12345',
  'true',
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
  '\uFEFF{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];

/** Query strings that no form makes. */
export const BROKEN_QUERIES = [
  '%',
  '%E0%A4%A',
  'a=%ZZ',
  'page=abc',
  'page=-1',
  'page=0',
  'page=99999999999999999999',
  'page=1e400',
  'per_page=100000',
  'per_page=-5',
  'sort=id;drop table users',
  'sort=__proto__',
  'order=sideways',
  'page[]=1&page[]=2',
  'a[b][c]=1',
  'page=1&page=2',
  `q=${'x'.repeat(20_000)}`,
  'company_id=99999999999999999999',
  'id=NaN',
  'company_id=0x10',
  'date=2024-02-30',
  'date=99999-01-01',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  '&&&==&=',
  '=',
  'page=%00',
  'search=%27%20OR%201%3D1--',
];

/** Path parameter values: non-numeric, negative, huge, encoded tricks. */
export const NASTY_PARAMS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '2147483648',
  '9223372036854775808',
  '%00',
  '%2e%2e%2f%2e%2e%2f',
  ' 1',
  'NaN',
  'null',
  '[]',
  'x'.repeat(90),
  '%E0%A4%A',
];

/** Request headers a client controls, broken (they replace the caller's own; the answer is then a refusal). */
export const NASTY_HEADERS: Array<Record<string, string>> = [
  { authorization: `Bearer ${'x'.repeat(10_000)}` },
  { authorization: 'Bearer' },
  { authorization: 'Basic Zm9vOmJhcg==' },
  { authorization: 'Bearer a b c' },
  { 'x-api-password': 'x'.repeat(10_000) },
  { 'x-api-password': '' },
  { 'accept-language': 'zz;q=abc,'.repeat(500) },
  { 'accept-language': '*' },
  { 'x-forwarded-for': 'not-an-address, , ::ffff:999.1.1.1' },
  { 'x-forwarded-proto': 'gopher' },
  { 'x-forwarded-host': 'evil.example:99999' },
];

export interface FuzzCase {
  label: string;
  params: Record<string, string>;
  query: string;
  headers?: Record<string, string>;
  /** A JSON value to send as JSON, or a raw payload with its content type. */
  body?: { json: Json } | { raw: string | Buffer; contentType: string };
}

/** A valid-looking value of a schema: the starting point that one change makes invalid. */
export function sample(s: Schema | undefined, rng: Rng): Json {
  if (!s) return 'abc';
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(s.items, rng)];
    case 'object': {
      if (s.description?.includes('file')) return 'not-a-file';
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) if ((s.required ?? []).includes(k) || rng.chance(0.5)) out[k] = sample(v, rng);
      return out;
    }
    case 'string': {
      if (s.format === 'date') return '2031-05-04';
      if (s.format === 'email') return 'fuzz@example.test';
      const min = Math.max(1, s.minLength ?? 1);
      return 'abc'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(3, s.maxLength ?? 3)));
    }
    default:
      return s.description?.includes('file') ? 'not-a-file' : 'abc';
  }
}

/** One hostile value of any kind. */
export function nasty(rng: Rng): Json {
  const k = rng.int(10);
  if (k < 4) return rng.pick(NASTY_STRINGS);
  if (k < 7) return rng.pick(NASTY_NUMBERS);
  return rng.pick(NASTY_SHAPES);
}

/** A value of the right JSON type that breaks the schema's other rules (bounds, lengths, formats). */
function edgeOf(s: Schema, rng: Rng): Json {
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'integer' || type === 'number') return rng.pick(NASTY_NUMBERS);
  if (type === 'string') return rng.pick(NASTY_STRINGS);
  if (type === 'array') return rng.pick([Array.from({ length: 1000 }, () => 'x'), [null], [HUGE], [rng.pick(NASTY_NUMBERS)]]);
  return nasty(rng);
}

const queryValue = (v: Json) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
/** Percent-encoding that also carries lone surrogates (as their invalid UTF-8 bytes, which is what a hostile client sends). */
const pct = (text: string) =>
  text
    .replace(/[\uD800-\uDFFF]/g, (c) => (c.charCodeAt(0) < 0xdc00 ? '\u0001hi' : '\u0001lo'))
    .split('\u0001')
    .map((chunk, i) => (i === 0 ? encodeURIComponent(chunk) : (chunk.startsWith('hi') ? '%ED%A0%80' : '%ED%B0%80') + encodeURIComponent(chunk.slice(2))))
    .join('');
const encode = (o: Record<string, Json>) =>
  Object.entries(o)
    .map(([k, v]) => `${pct(k)}=${pct(queryValue(v))}`)
    .join('&');

/** Multipart bodies broken in every way a parser meets. */
export function brokenMultipart(rng: Rng, fields: string[]): { raw: Buffer; contentType: string } {
  const b = 'fuzzboundary';
  const field = rng.pick(fields.length ? fields : ['x']);
  const part = (name: string, value: string, file?: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"${file !== undefined ? `; filename="${file}"` : ''}\r\n${file !== undefined ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n${value}\r\n`;
  const variants: Array<() => { raw: Buffer; contentType: string }> = [
    () => ({ raw: Buffer.from(part(field, 'abc')), contentType: 'multipart/form-data' }), // no boundary
    () => ({ raw: Buffer.from(part(field, 'abc')), contentType: `multipart/form-data; boundary=${b}` }), // no closing line
    () => ({ raw: Buffer.from(`--${b}\r\nContent-Disposition: form-data\r\n\r\nabc\r\n--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` }), // no name
    () => ({ raw: Buffer.from(`--other\r\n${part(field, 'abc')}--other--\r\n`), contentType: `multipart/form-data; boundary=${b}` }),
    () => ({
      raw: Buffer.from(part(field, 'PK\u0003\u0004 not a zip', '../../../etc/passwd.xlsx') + `--${b}--\r\n`),
      contentType: `multipart/form-data; boundary=${b}`,
    }),
    () => ({ raw: Buffer.from(part(field, '', '') + `--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` }), // empty file
    () => ({ raw: Buffer.from(part(field, rng.pick(NASTY_STRINGS)) + `--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` }),
    () => ({ raw: Buffer.from(fields.map((f) => part(f, '\u0000<b>', 'x.xls')).join('') + `--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` }), // every field a file
    () => ({
      raw: Buffer.from(Array.from({ length: 600 }, (_, i) => part(`f${i}[]`, 'v')).join('') + `--${b}--\r\n`),
      contentType: `multipart/form-data; boundary=${b}`,
    }), // too many fields
    () => ({
      raw: Buffer.from(part(`${field}[]`, 'a') + part(`${field}[]`, 'b') + part(field, 'c') + `--${b}--\r\n`),
      contentType: `multipart/form-data; boundary=${b}`,
    }),
    () => ({ raw: Buffer.from(part('x'.repeat(5000), 'v') + `--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` }),
    () => ({
      raw: Buffer.concat([Buffer.from(part(field, '', 'big.xlsx').slice(0, -2)), Buffer.alloc(300_000, 0x41), Buffer.from(`\r\n--${b}--\r\n`)]),
      contentType: `multipart/form-data; boundary=${b}`,
    }),
    () => ({
      raw: Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="a.xlsx"\r\nContent-Type: application/vnd.ms-excel\r\n\r\n\u00d0\u00cf\u0011\u00e0garbage`,
      ),
      contentType: `multipart/form-data; boundary=${b}`,
    }), // truncated
    () => ({ raw: Buffer.from(part('__proto__', 'x') + part('constructor', 'y') + `--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` }),
  ];
  return rng.pick(variants)();
}

/** A well-formed multipart body of text parts (lists as repeated `name[]` parts). */
export function formOf(fields: Record<string, Json>): { raw: Buffer; contentType: string } {
  const b = 'fuzzform';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      parts.push(`--${b}\r\nContent-Disposition: form-data; name="${Array.isArray(v) ? `${k}[]` : k}"\r\n\r\n${queryValue(item)}\r\n`);
    }
  }
  return { raw: Buffer.from(`${parts.join('')}--${b}--\r\n`), contentType: `multipart/form-data; boundary=${b}` };
}

/**
 * `count` cases for one route: most change one field of a valid-looking input to something hostile;
 * the rest break the whole body, the query, the path parameters, the encoding or the content type.
 */
export function casesFor(route: { method: string; url: string; schema?: FastifySchema }, seed: number, count: number): FuzzCase[] {
  const rng = new Rng(seed ^ hash32(`${route.method} ${route.url}`));
  const s = (route.schema ?? {}) as Schema;
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const bodySchema: Schema | undefined = s.body;
  const querySchema: Schema | undefined = s.querystring;
  const multipart = Array.isArray(s.consumes) && s.consumes.includes('multipart/form-data');
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const props = Object.entries<Schema>(bodySchema?.properties ?? {});
  const qprops = Object.entries<Schema>(querySchema?.properties ?? {});
  // A parameter value that is well formed but names nothing (a destructive route then answers 404).
  const goodParams = () =>
    Object.fromEntries(
      paramNames.map((p) => {
        const ps = s.params?.properties?.[p];
        return [p, ps?.enum ? String(ps.enum[0]) : '987654'];
      }),
    );
  const goodQuery = () => (querySchema ? encode(sample(querySchema, rng) as Record<string, Json>) : '');
  const goodBody = () => (bodySchema ? sample(bodySchema, rng) : {}) as Record<string, Json>;

  const out: FuzzCase[] = [];
  for (let i = 0; out.length < count; i++) {
    const params = goodParams();
    let query = goodQuery();
    let body: FuzzCase['body'] = hasBody ? { json: goodBody() } : undefined;
    let label: string;
    let headers: Record<string, string> | undefined;
    const kind = rng.int(100);
    if (hasBody && props.length && kind < 40) {
      // One field changed: a wrong type, an edge of its own type, or a hostile shape.
      const b = goodBody();
      const [name, ps] = rng.pick(props);
      b[name] = rng.chance(0.5) ? edgeOf(ps, rng) : nasty(rng);
      body = { json: b };
      label = `body.${name} = ${preview(b[name])}`;
    } else if (hasBody && kind < 48) {
      const b = goodBody();
      const required: string[] = bodySchema?.required ?? props.map(([k]) => k);
      const drop = required.length ? rng.pick(required) : undefined;
      if (drop) delete b[drop];
      const hostile = rng.chance(0.5);
      if (hostile) for (const [k] of props) if (k !== drop) b[k] = nasty(rng);
      body = { json: b };
      label = `body without ${drop ?? 'nothing'}${hostile ? ', every other field hostile' : ''}`;
    } else if (hasBody && kind < 56) {
      const v = rng.pick<Json>([null, [], 'text', 42, true, [goodBody()], { ...goodBody(), unknown_field: HUGE, __proto__x: { polluted: 1 } }]);
      body = { json: v };
      label = `body = ${preview(v)}`;
    } else if (hasBody && kind < 66) {
      const raw = rng.pick(BROKEN_JSON);
      body = { raw, contentType: 'application/json' };
      label = `raw JSON ${preview(raw)}`;
    } else if (hasBody && kind < 72) {
      const contentType = rng.pick([
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'image/png',
        'application/json-patch+json',
        '',
      ]);
      body = { raw: JSON.stringify(goodBody()), contentType };
      label = `content type ${JSON.stringify(contentType)}`;
    } else if (hasBody && multipart && kind < 77) {
      body = brokenMultipart(
        rng,
        props.map(([k]) => k),
      );
      label = `multipart ${preview(body.raw.toString('latin1'))}`;
    } else if (hasBody && multipart && kind < 82) {
      // Well-formed multipart whose text parts carry the valid-looking body with one field hostile.
      const b = goodBody();
      const [name] = props.length ? rng.pick(props) : ['x'];
      b[name] = rng.pick(NASTY_STRINGS.filter((v) => v.length < 5000));
      body = formOf(b);
      label = `multipart field ${name} = ${preview(b[name])}`;
    } else if (kind >= 95) {
      headers = rng.pick(NASTY_HEADERS);
      label = `headers ${preview(headers)}`;
    } else if (paramNames.length && kind < 90) {
      const p = rng.pick(paramNames);
      params[p] = rng.pick(NASTY_PARAMS);
      label = `param ${p} = ${preview(params[p])}`;
    } else if (qprops.length && rng.chance(0.6)) {
      const q = sample(querySchema, rng) as Record<string, Json>;
      const [name, ps] = rng.pick(qprops);
      q[name] = rng.chance(0.5) ? edgeOf(ps, rng) : nasty(rng);
      query = encode(q);
      label = `query ${name} = ${preview(q[name])}`;
    } else {
      query = rng.pick(BROKEN_QUERIES);
      label = `query ${preview(query)}`;
    }
    out.push({ label: `#${i} ${label}`, params, query, body, headers });
  }
  return out;
}

/** A short printable view of a value (failures print the seed, the route and this). */
export function preview(v: unknown): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : Buffer.isBuffer(v) ? JSON.stringify(v.toString('latin1')) : (JSON.stringify(v) ?? String(v));
  return text.length > 120 ? `${text.slice(0, 100)}… (${text.length} chars)` : text;
}
