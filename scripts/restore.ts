import { ConfigError, loadConfig } from '../server/config.js';
import { restorePortal } from '../server/backup/restore.js';
import { BackupError } from '../server/backup/manifest.js';

/**
 * `npm run restore -- FILE`: restores a backup into the EMPTY portal the environment configures
 * (DATA_DIR, DATABASE_URL, FILES_URL; server/backup/restore.ts). Start the portal afterwards: it
 * migrates a backup of an older version as at an upgrade.
 */
async function main() {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('usage: npm run restore -- FILE   (into an empty DATA_DIR / database)');
    process.exit(2);
  }
  const config = loadConfig();
  const r = await restorePortal({ config, file, log: (line) => console.log(line) });
  console.log(`ok: restored the backup of ${r.manifest.created_at} (${r.manifest.files.length} files)`);
}

main().catch((err) => {
  console.error(err instanceof BackupError || err instanceof ConfigError ? `restore refused: ${err.message}` : err);
  process.exit(1);
});
