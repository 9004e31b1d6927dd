// `npm test`: typecheck, lint (ESLint: errors fail, warnings are shown), the formatting check (Prettier) of
// the folders already formatted, build the app, then every vitest project (unit, API on SQLite and — with
// TEST_DATABASE_URL — PostgreSQL, browser). Ends with one line "N passed, N failed, N skipped".
// FORMAT_CHECK=0 skips the formatting check (`npm run format` rewrites, `npm run format:check` checks it all).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const started = Date.now();
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const run = (label, args, env = {}) => {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
};

/**
 * The checks before the tests, two at a time (the CI machine's two cores; each is one Node process, mostly one
 * thread): typecheck, lint, formatting and the build are independent of one another. Each one's output is
 * printed whole when it ends, so two never interleave; the first failure stops the run with its name.
 */
function runQuiet(label, args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, args, { cwd: root, env: process.env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      console.log(`\n▶ ${label} (${Math.round((Date.now() - t0) / 1000)} s)${out.trim() ? `\n${out.trimEnd()}` : ''}`);
      resolve(code ?? 1);
    });
  });
}

/** Prettier checks the whole repository (`.prettierignore` lists what it leaves alone); `npm run format` rewrites. */
const FORMATTED = ['.'];
/** The newest modification time under the build's inputs (ms). */
function newestInput() {
  let newest = 0;
  const visit = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ['src', 'model', 'public', 'index.html', 'vite.config.ts', 'build', 'package-lock.json', 'tsconfig.json']) visit(path.join(root, p));
  return newest;
}
/**
 * The built app is shared by the browser tests of a run; a run whose dist/ is newer than every input of the
 * build (src/, model/, public/, index.html, vite.config.ts, its plugins in build/, the lock file) keeps it (BUILD=1 always builds). A
 * fresh clone, as CI's, always builds.
 */
const distIndex = path.join(root, 'dist', 'index.html');
const distFresh = process.env.BUILD !== '1' && fs.existsSync(distIndex) && fs.statSync(distIndex).mtimeMs > newestInput();
if (distFresh) console.log('\n▶ build the browser app: dist/ is newer than its inputs, kept (BUILD=1 rebuilds)');
const checks = [
  ...(distFresh ? [] : [{ label: 'build the browser app', failed: 'build', args: [bin('vite', 'bin/vite.js'), 'build', '--logLevel', 'warn'] }]),
  // TypeScript 7 (the compiler rewritten natively, package `typescript-7`) checks the types: 46 s → 17 s on the CI
  // machine (docs/benchmarks.md, "Seventh round"). TypeScript 5 stays for the tools that use its JavaScript API
  // (typescript-eslint's parser, openapi-typescript, tests/api/generatedClient.test.ts).
  { label: 'typecheck', failed: 'typecheck', args: [bin('typescript-7', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  // The server process the tests spawn (scripts/buildServer.mjs; they would build it themselves, this says when it fails).
  { label: 'build the server', failed: 'server build', args: [path.join(root, 'scripts', 'buildServer.mjs')] },
  { label: 'lint (ESLint)', failed: 'lint', args: [bin('eslint', 'bin/eslint.js'), '.'] },
  {
    label: 'typecheck the isomorphic declarations (no DOM, no Node)',
    failed: 'typecheck',
    args: [bin('typescript-7', 'bin/tsc'), '-p', 'model/tsconfig.json'],
  },
  ...(process.env.FORMAT_CHECK !== '0'
    ? [
        {
          label: `formatting (Prettier: ${FORMATTED.join(', ')})`,
          failed: 'formatting: `npm run format` fixes it',
          args: [bin('prettier', 'bin/prettier.cjs'), '--check', ...FORMATTED],
        },
      ]
    : []),
];
const checksStarted = Date.now();
const failedChecks = [];
await Promise.all(
  [0, 1].map(async () => {
    for (let c = checks.shift(); c; c = checks.shift()) if ((await runQuiet(c.label, c.args)) !== 0) failedChecks.push(c.failed);
  }),
);
if (failedChecks.length) {
  console.log(`\n0 passed, ${failedChecks.length} failed (${failedChecks.join('; ')})`);
  process.exit(1);
}
console.log(`\nChecks and build: ${Math.round((Date.now() - checksStarted) / 1000)} s`);
if (!process.env.TEST_DATABASE_URL) console.log('\nNOTE: TEST_DATABASE_URL is not set: the API tests run on SQLite only.');

const report = path.join(root, 'test-results', 'vitest.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
fs.rmSync(report, { force: true });
const status = run('tests', [
  bin('vitest', 'vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);

/**
 * Time per project (issue 37 item 3), from the JSON report: wall time from the first file's start to the last
 * file's end, and the files' summed time (more than the wall time when files ran side by side).
 */
function projectTimes(r) {
  const projectOf = (file) => (file.includes('/tests/browser/') ? 'browser' : file.includes('/tests/api/') ? 'api' : 'unit');
  const by = new Map();
  for (const f of r.testResults ?? []) {
    if (!f.startTime || !f.endTime) continue;
    const p = by.get(projectOf(f.name)) ?? { start: Infinity, end: 0, sum: 0, files: 0 };
    by.set(projectOf(f.name), {
      start: Math.min(p.start, f.startTime),
      end: Math.max(p.end, f.endTime),
      sum: p.sum + (f.endTime - f.startTime),
      files: p.files + 1,
    });
  }
  const s = (ms) => `${Math.round(ms / 1000)} s`;
  return ['unit', 'api', 'browser']
    .filter((k) => by.has(k))
    .map((k) => {
      const p = by.get(k);
      return `  ${k.padEnd(8)} ${String(p.files).padStart(3)} files  ${s(p.end - p.start).padStart(6)} wall  ${s(p.sum).padStart(6)} summed`;
    })
    .join('\n');
}

let summary = '';
try {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  console.log(`\nTime per project:\n${projectTimes(r)}\nWhole run (typecheck, lint, format, build, tests): ${Math.round((Date.now() - started) / 1000)} s`);
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
  if (r.numFailedTestSuites && !r.numFailedTests) summary = `${r.numPassedTests} passed, ${r.numFailedTestSuites} failed, ${skipped} skipped`;
} catch {
  summary = `0 passed, 1 failed`;
}
console.log(`\n${summary}`);
process.exit(status);
