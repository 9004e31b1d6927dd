import { ConfigError, loadConfig } from '../server/config.js';
import { backupPortal } from '../server/backup/backup.js';
import { BackupError } from '../server/backup/manifest.js';

/**
 * `npm run backup -- FILE`: one archive of the portal the environment configures (DATA_DIR,
 * DATABASE_URL, FILES_URL), taken while it runs (server/backup/backup.ts). Exit code 0 when written.
 */
async function main() {
  const out = process.argv[2];
  if (!out || process.argv.length > 3) {
    console.error('usage: npm run backup -- FILE   (e.g. backups/portal-$(date +%F-%H%M).tar.gz)');
    process.exit(2);
  }
  const config = loadConfig();
  const manifest = await backupPortal({ config, out, log: (line) => console.log(line) });
  console.log(`ok: ${out} (${manifest.dialect}, migration ${manifest.migration}, ${manifest.files.length} files)`);
}

main().catch((err) => {
  console.error(err instanceof BackupError || err instanceof ConfigError ? `backup refused: ${err.message}` : err);
  process.exit(1);
});
