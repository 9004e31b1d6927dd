import type { TestPortal } from './helpers.js';
import { hashPassword } from '../../server/lib/passwords.js';

let counter = 0;

/** A fresh active user in the demo end-user company (so each test has its own counters). */
export async function createUser(p: TestPortal, opts: { email?: string; password?: string; lang?: 'it' | 'en' | 'fr'; first_name?: string } = {}) {
  const db = p.db.db;
  const email = opts.email ?? `user${++counter}-${Date.now()}@example.test`;
  const password = opts.password ?? 'Secret123';
  const company = await db.selectFrom('users').select('company_id').where('email', '=', 'enduser@portal.demo').executeTakeFirstOrThrow();
  const lang = await db
    .selectFrom('languages')
    .select('id')
    .where('code', '=', opts.lang ?? 'it')
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const row = await db
    .insertInto('users')
    .values({
      role_id: 6,
      company_id: company.company_id,
      language_id: lang.id,
      first_name: opts.first_name ?? 'Giulia',
      last_name: 'Bianchi',
      email,
      password_hash: await hashPassword(password),
      status_id: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password };
}

/** A multipart body for inject, built by the platform's FormData. */
export async function multipart(
  fields: Record<string, string | number | { filename: string; type: string; data: Buffer }>,
  headers: Record<string, string> = {},
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'object') fd.append(k, new Blob([new Uint8Array(v.data)], { type: v.type }), v.filename);
    else fd.append(k, String(v));
  }
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { ...headers, 'content-type': res.headers.get('content-type')! } };
}

/** A real 1×1 PNG, optionally padded (after the IEND chunk) to a given size. */
export function png(size = 0) {
  const base = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  return size > base.length ? Buffer.concat([base, Buffer.alloc(size - base.length)]) : base;
}

/** A distinct client address per test, so the per-address limits of one test do not touch another. */
let ip = 0;
export const nextIp = () => ({ 'x-forwarded-for': `10.9.${Math.floor(++ip / 250)}.${(ip % 250) + 1}` });
