import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';

/**
 * How answers travel (issue 18: the public pages load fast on a phone).
 *
 * - The built app's files are compressed once, at build time (build/precompress.ts: brotli 11 and
 *   gzip 9 next to each text file of 1 kB or more). @fastify/static (`preCompressed`) sends the `.br` or
 *   `.gz` the request's Accept-Encoding allows, with Content-Encoding and `Vary: Accept-Encoding`; without
 *   one it sends the plain file. Static files are never compressed per request (what is not precompressed
 *   is small or already compressed: fonts, images).
 * - Everything else — API answers, the OpenAPI document, index.html (the server writes the API password
 *   into it, so it cannot be precompressed) — is compressed per request by @fastify/compress when it is
 *   1 kB or more, text (JSON, HTML, JS, CSS, SVG, XML) and the client accepts br or gzip; brotli at quality
 *   4, cheap in CPU. Downloads (xlsx, documents: octet-stream), media images and small answers go as
 *   they are. Request bodies are not decompressed (no Content-Encoding accepted on requests, as before).
 *   index.html is answered at `/` and `/index.html` only; any other path is a 404 (server/app.ts, issue 32).
 * - Caching: files under /assets/ carry a content hash in their name, so they are `public, max-age=1 year,
 *   immutable`; every other static file and index.html is `no-cache` (revalidated each time with its
 *   ETag / Last-Modified, so a deploy shows at once). API answers carry no cache header.
 */

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
/** The smallest answer compressed on the fly (the precompressed files follow the same limit). */
export const COMPRESS_THRESHOLD = 1024;

/** Text types worth compressing (@fastify/compress adds the types mime-db calls compressible); octet-stream downloads, xlsx, images and fonts are left alone. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|javascript|[+/]xml(?:;|$)/;

/**
 * Per-request compression, for every route registered after it (call it before the routes). Static files'
 * routes (registered by `serveStatic`) opt out: they are precompressed.
 */
export async function registerCompression(app: FastifyInstance) {
  // Before @fastify/compress's own onRoute hook, which reads `config.compress`. @fastify/static marks
  // each file's route with `config.file`.
  app.addHook('onRoute', (route) => {
    const config = route.config as { file?: unknown; rootPath?: unknown; compress?: unknown } | undefined;
    if (config && config.file !== undefined && config.rootPath !== undefined) config.compress = false;
  });
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: (type: string) => COMPRESSIBLE.test(type),
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}

/**
 * Serves the built app's files (not index.html, which the caller answers itself with the API password
 * written in, nor the `.br` / `.gz` variants as files of their own) with the cache policy above.
 */
export async function serveStatic(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (reply: FastifyReply, file: string) => {
      const rel = path.relative(root, file).split(path.sep).join('/');
      reply.header('cache-control', rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    },
  });
}
