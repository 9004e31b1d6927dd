// `npm run create-admin -- EMAIL PASSWORD`: creates an admin (and the Admin company when none exists)
// on the configured database — production's documented way in besides ADMIN_EMAIL / ADMIN_PASSWORD.
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { ensureAdmin } from '../server/seed/index.js';
import { seedReference } from '../server/seed/reference.js';

const [email, password] = process.argv.slice(2);
if (!email || !password) {
  console.error('usage: npm run create-admin -- EMAIL PASSWORD');
  process.exit(2);
}
const config = loadConfig({ ...process.env, API_PASSWORD: process.env.API_PASSWORD || 'unused', SMTP_URL: process.env.SMTP_URL || 'smtp://unused' });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateToLatest(db.db);
  await seedReference(db.db);
  const created = await ensureAdmin(db.db, email, password);
  console.log(created ? `Admin ${email} created.` : `A user with email ${email} already exists; nothing changed.`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
