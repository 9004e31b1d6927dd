/**
 * The server process of `npm run bench:events`: the portal as server/index.ts starts it (same app, same
 * database code), plus a count of every database statement it runs (a Kysely plugin: each executed query
 * passes its result through it once). The benchmark asks for the count over IPC: `{count: true}` → `{queries}`.
 */
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';

let queries = 0;
const counter: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    queries++;
    return args.result;
  },
};

async function main() {
  const config = loadConfig();
  const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const db = handle.db.withPlugin(counter);
  const app = await buildApp({ config, db: { ...handle, db } });
  await app.listen({ port: config.port, host: config.host });
  process.on('message', (m: { count?: boolean }) => {
    if (m?.count) process.send?.({ queries });
  });
  process.on('disconnect', () => {
    void app
      .close()
      .then(() => handle.destroy())
      .finally(() => process.exit(0));
  });
  process.send?.({ ready: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
