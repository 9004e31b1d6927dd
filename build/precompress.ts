/**
 * Build-time compression of the browser app (issue 18): after `vite build` has written dist/, every
 * compressible file gets a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) sibling, which the server
 * sends by content negotiation (@fastify/static `preCompressed`, server/app.ts) — the best compression,
 * paid once per build instead of per request. Skipped: index.html (the server writes the API password into
 * it, then compresses it per request), files under 1 kB, and a variant that would not be smaller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The file kinds worth compressing (text). Source maps are not served to users; images and fonts are compressed already. */
export const PRECOMPRESSED_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.svg', '.html', '.json', '.txt', '.xml', '.webmanifest']);
/** Below this a file fits in a packet or two anyway (the server's on-the-fly threshold too). */
export const PRECOMPRESS_MIN_BYTES = 1024;

const listFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));

export interface PrecompressResult {
  /** files given variants, relative to the folder */
  compressed: string[];
  /** bytes before, and of the brotli / gzip variants written */
  raw: number;
  br: number;
  gz: number;
}

/** Writes `<file>.br` and `<file>.gz` next to every compressible file of `dir` (see above); answers what it did. */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { compressed: [], raw: 0, br: 0, gz: 0 };
  const candidates = listFiles(dir).filter((f) => {
    const rel = path.relative(dir, f);
    return rel !== 'index.html' && PRECOMPRESSED_EXTENSIONS.has(path.extname(f).toLowerCase());
  });
  await Promise.all(
    candidates.map(async (file) => {
      const body = fs.readFileSync(file);
      if (body.length < PRECOMPRESS_MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      let wrote = false;
      if (br.length < body.length) {
        fs.writeFileSync(`${file}.br`, br);
        result.br += br.length;
        wrote = true;
      }
      if (gz.length < body.length) {
        fs.writeFileSync(`${file}.gz`, gz);
        result.gz += gz.length;
        wrote = true;
      }
      if (wrote) {
        result.compressed.push(path.relative(dir, file));
        result.raw += body.length;
      }
    }),
  );
  result.compressed.sort();
  return result;
}

/** The Vite plugin: compresses the output folder once the build has written everything (public/ included). */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      if (!fs.existsSync(outDir)) return;
      const started = Date.now();
      const r = await precompressDir(outDir);
      const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
      config.logger.info(`precompress: ${r.compressed.length} files, ${kB(r.raw)} → ${kB(r.br)} brotli, ${kB(r.gz)} gzip (${Date.now() - started} ms)`);
    },
  };
}
