// CI: keep this machine's compiled better-sqlite3 where its installer looks for a prebuilt binary, so the next
// `npm ci` on this machine installs it instead of compiling SQLite again (issue 37 item 3: `npm ci` of a fresh
// clone 144 s without it, 55–68 s with it, on the 2-core machine). No prebuilt binary can be downloaded here (the machine reaches only
// the npm registry and Debian's packages), so prebuild-install fails and `node-gyp rebuild` compiles it, every time.
//
// prebuild-install first looks in the npm cache (`<cache>/_prebuilds/<digest of its download URL>-<file name>`)
// for a download it made before; this puts the binary the last install compiled there, in the layout of a
// prebuilt archive (build/Release/better_sqlite3.node). prebuild-install loads the binary before accepting it
// (a broken or foreign one makes it compile as before), and the name carries the package version, Node's ABI,
// the platform, libc and the CPU architecture, so another version or Node never takes it.
// Run by .ci/run after `npm ci`; does nothing when the archive is there or nothing was compiled.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkgDir = path.join(root, 'node_modules', 'better-sqlite3');
const binary = path.join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
if (!fs.existsSync(binary)) process.exit(0);

const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const util = require(path.join(root, 'node_modules', 'prebuild-install', 'util.js'));
// prebuild-install runs in the package's folder (its rc reads ./package.json): the same options its own rc computes for this machine (runtime, ABI, platform, libc, arch).
process.chdir(pkgDir);
const opts = require(path.join(root, 'node_modules', 'prebuild-install', 'rc.js'))(pkg);
const archive = util.cachedPrebuild(util.getDownloadUrl({ ...opts, pkg }));
if (fs.existsSync(archive)) process.exit(0);

fs.mkdirSync(path.dirname(archive), { recursive: true });
const tmp = `${archive}.${process.pid}.tmp`;
execFileSync('tar', ['-czf', tmp, '-C', pkgDir, 'build/Release/better_sqlite3.node']);
fs.renameSync(tmp, archive);
console.log(`Kept the compiled better-sqlite3 for the next install: ${archive}`);
