import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { openFileStore, type FileStore } from '../lib/files.js';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { hashPassword, passwordProblem } from '../lib/passwords.js';
import { nowIso } from '../lib/tokens.js';
import { seedDemo } from './demo.js';
import { seedReference } from './reference.js';
import { seedDemoTariffs } from './tariffs.js';
import { seedDemoRequests } from './requests.js';
import { seedDemoAddressBook } from './addressBook.js';

/**
 * Loads reference data, then the demo set (outside production) or the first admin (production). The demo
 * tariffs' files go to `files`, or to the store the configuration names (lib/files.ts).
 */
export async function seed(db: Db, config: Config, files?: FileStore) {
  await seedReference(db);
  if (config.demoData) await seedDemo(db);
  if (config.demoData) {
    const store = files ?? (await openFileStore(config, db));
    try {
      await seedDemoTariffs(db, store);
    } finally {
      if (!files) await store.close();
    }
  }
  if (config.demoData) await seedDemoRequests(db);
  if (config.demoData) await seedDemoAddressBook(db);
  if (config.adminEmail && config.adminPassword) await ensureAdmin(db, config.adminEmail, config.adminPassword);
}

/** Creates the first admin (and its Admin company) when no user has that email yet. */
export async function ensureAdmin(db: Db, email: string, password: string) {
  const e = email.trim().toLowerCase();
  if (await db.selectFrom('users').select('id').where('email', '=', e).executeTakeFirst()) return false;
  if (passwordProblem(password)) throw new Error('ADMIN_PASSWORD must have at least 8 characters with letters and digits');
  const now = nowIso();
  let company = await db.selectFrom('companies').select('id').where('company_role_id', '=', COMPANY_ROLE.ADMIN).executeTakeFirst();
  company ??= await db
    .insertInto('companies')
    .values({
      legal_name: 'Admin',
      company_role_id: COMPANY_ROLE.ADMIN,
      status_id: 1,
      is_inbound: 1,
      type: 'Customer',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      role_id: USER_ROLE.ADMIN,
      company_id: company.id,
      first_name: 'Admin',
      last_name: 'Admin',
      email: e,
      password_hash: await hashPassword(password),
      status_id: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return true;
}
