/**
 * Writes the served OpenAPI document (`/api/docs`) to a file, from an app built on a throwaway SQLite
 * database: `npx tsx scripts/openapi-dump.ts [out.json]` (default openapi.json). With `--open` it also
 * lists, per operation, the objects of its 2xx answers that still let undeclared properties through
 * (tests/api/openapiShapes.ts, the check tests/api/openapi.test.ts makes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { openObjects } from '../tests/api/openapiShapes.js';

const args = process.argv.slice(2);
const out = args.find((a) => !a.startsWith('--')) ?? 'openapi.json';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-dump-'));
const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, { dataDir });
const db = await openDb(config);
await migrateToLatest(db.db);
const app = await buildApp({ config, db });
await app.ready();
const doc = app.swagger() as unknown as Record<string, unknown>;
fs.writeFileSync(out, JSON.stringify(doc, null, 1));
if (args.includes('--open')) {
  const open = openObjects(doc);
  for (const o of open) console.log(`${o.operation}  ${o.where}`);
  console.log(`${open.length} open objects in 2xx answers`);
}
await app.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
