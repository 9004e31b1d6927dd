// The server built into plain JavaScript before it starts (issue 37): `dist-server/index.mjs` and the
// spreadsheet reader's thread `dist-server/read-worker.mjs`, each one file bundled by esbuild from server/ and
// model/, the packages left to node_modules. A process started from its TypeScript sources through tsx spent
// most of its start in tsx's loader (one round trip to its loader thread per file: 2.7–3.0 s of a 5 s start,
// docs/benchmarks.md "Sixth round"); the bundle is one file Node reads as it is.
//
// What the bundle keeps of the sources' layout:
// - `import.meta.url` is, in each module, the URL of its source file (rewritten relative to the bundle), so
//   what a module finds next to itself (fonts, package.json, the reader's worker.mjs, createRequire) is found
//   in the tree as from the sources;
// - the migrations stay "a file in server/migrations is a migration": the folder listing of
//   migrations/index.ts becomes, in the bundle, the list of the files the folder held when it was built.
//
// `node scripts/buildServer.mjs` builds; serverCommand.mjs builds when the bundle is missing or older than
// its inputs (`serverBuildFresh`), so `npm start`, the tests and the benchmarks never run a stale one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { SERVER_BUNDLE } from './serverCommand.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_BUILD_DIR = path.dirname(SERVER_BUNDLE);

const migrationsIndex = path.join(root, 'server', 'migrations', 'index.ts');
const migrationFile = /^\d{4}_[\w-]+\.ts$/;

/** Source files' `import.meta.url` relative to the bundle, and the migrations' folder listing made static. */
const sourceLayout = {
  name: 'source-layout',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const loader = args.path.endsWith('js') ? 'js' : 'ts';
      if (args.path === migrationsIndex) {
        const files = fs
          .readdirSync(path.dirname(args.path))
          .filter((f) => migrationFile.test(f))
          .sort();
        const contents = [
          ...files.map((f, i) => `import * as m${i} from './${f}';`),
          `export async function loadMigrations() { return { ${files.map((f, i) => `${JSON.stringify(f.replace(/\.ts$/, ''))}: m${i}`).join(', ')} }; }`,
        ].join('\n');
        return { contents, loader: 'ts', resolveDir: path.dirname(args.path) };
      }
      let contents = await fs.promises.readFile(args.path, 'utf8');
      if (contents.includes('import.meta.url')) {
        const rel = path.relative(SERVER_BUILD_DIR, args.path).split(path.sep).join('/');
        contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
      }
      return { contents, loader, resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * Builds both bundles into a temporary folder, then moves each file into dist-server/ with a rename, which
 * replaces a file at once: a process starting meanwhile reads the old file or the new one, never half of one,
 * and two processes building at once both succeed.
 */
export async function buildServer() {
  const tmp = `${SERVER_BUILD_DIR}.tmp-${process.pid}-${Date.now()}`;
  try {
    await esbuild.build({
      entryPoints: {
        index: path.join(root, 'server', 'index.ts'),
        'read-worker': path.join(root, 'server', 'imports', 'read', 'worker.ts'),
      },
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      // Not minified, names kept: a stack trace names the functions, and each part of the file starts with a
      // comment naming its source file.
      keepNames: true,
      legalComments: 'none',
      logLevel: 'warning',
      define: { __SERVER_BUNDLE__: 'true' },
      plugins: [sourceLayout],
    });
    fs.mkdirSync(SERVER_BUILD_DIR, { recursive: true });
    // the maps first, the reader before the server: a server that sees the new index.mjs finds its reader new too
    const files = fs.readdirSync(tmp).sort((a, b) => rank(a) - rank(b));
    for (const f of files) fs.renameSync(path.join(tmp, f), path.join(SERVER_BUILD_DIR, f));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const rank = (f) => (f.endsWith('.map') ? 0 : f.startsWith('read-worker') ? 1 : 2);

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  await buildServer();
  console.log(`server built into ${path.relative(root, SERVER_BUILD_DIR)}/ in ${Date.now() - t0} ms`);
}
