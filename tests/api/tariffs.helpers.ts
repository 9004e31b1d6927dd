import * as XLSX from '@e965/xlsx';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { API_PASSWORD, type TestPortal } from './helpers.js';

/** An .xlsx with the given rows (first row = headers). */
export function xlsx(rows: Array<Array<string | number | null>>): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'data');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** An .xls (BIFF8) with the given rows. */
export function xls(rows: Array<Array<string | number | null>>): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'data');
  return XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
}

/** The rows of the first sheet of an xlsx answer, as arrays. */
export function readRows(data: Buffer): unknown[][] {
  const wb = XLSX.read(data, { type: 'buffer' });
  return XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true, defval: null });
}

/** A multipart body: text fields and one file. */
export function form(fields: Record<string, string | number>, file?: { field: string; name: string; data: Buffer }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, String(v));
  if (file) fd.append(file.field, new Blob([new Uint8Array(file.data)]), file.name);
  return fd;
}

let counter = 0;
/** A second carrier company with its Carrier user (and optionally an end-user company with its user). */
export async function createCarrier(p: TestPortal, name: string) {
  const db = p.db.db;
  const now = new Date().toISOString();
  const n = ++counter;
  const base = { status_id: 1, is_inbound: 1, type: 'Customer', created_at: now, updated_at: now };
  const carrier = await db
    .insertInto('companies')
    .values({ ...base, legal_name: name, company_role_id: COMPANY_ROLE.CARRIER })
    .returning('id')
    .executeTakeFirstOrThrow();
  const enduser = await db
    .insertInto('companies')
    .values({ ...base, legal_name: `${name} Cliente`, company_role_id: COMPANY_ROLE.ENDUSER, carrier_id: carrier.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const hash = await hashPassword('demo1234');
  const email = `carrier${n}-${Date.now()}@test.demo`;
  const endEmail = `enduser${n}-${Date.now()}@test.demo`;
  const user = { password_hash: hash, status_id: 1, created_at: now, updated_at: now, first_name: 'T', last_name: 'T' };
  await db
    .insertInto('users')
    .values([
      { ...user, role_id: USER_ROLE.CARRIER, company_id: carrier.id, email },
      { ...user, role_id: USER_ROLE.ENDUSER, company_id: enduser.id, email: endEmail },
    ])
    .execute();
  return { id: carrier.id, enduserId: enduser.id, token: await p.login(email), endToken: await p.login(endEmail) };
}

/** A GET answered with a file: status, headers and the raw bytes. */
export async function download(p: TestPortal, url: string, token: string) {
  const res = await p.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, data: res.rawPayload, json: () => res.json() };
}

/** A zip written by hand, so a test can declare sizes that lie: entries with their deflated data and declared unzipped size. */
export function zipOf(entries: Array<{ name: string; data: Buffer; method: 0 | 8; usz: number }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.usz, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.usz, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}
