import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app.js';
import { IMMUTABLE } from '../../server/plugins/delivery.js';
import { precompressDir } from '../../build/precompress.js';
import { API_PASSWORD, createTestPortal, type TestPortal } from './helpers.js';

/**
 * Issue 18, how answers travel (server/plugins/delivery.ts): the built app's precompressed files chosen by
 * Accept-Encoding, the cache policy, API answers compressed on the fly above 1 kB, downloads left alone;
 * and the build step that writes the `.br` / `.gz` files (build/precompress.ts).
 * Nothing here depends on the database: one SQLite portal.
 */

// Text that compresses, well over 1 kB.
const APP_JS = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${JSON.stringify(`line ${i} of the app`)};`).join('\n');
const INDEX = `<!doctype html><meta name="portal-api-password" content="__API_PASSWORD__"><div id="root"></div><!-- ${'padding '.repeat(200)} -->`;

const decoded = (r: LightMyRequestResponse) => {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(r.rawPayload).toString('utf8');
  if (enc === 'gzip') return zlib.gunzipSync(r.rawPayload).toString('utf8');
  return r.rawPayload.toString('utf8');
};

describe('delivery: compression and caching', () => {
  let portal: TestPortal;
  let app: FastifyInstance;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-delivery-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.mkdirSync(path.join(staticDir, 'assets'));
    const js = path.join(staticDir, 'assets', 'app-abc123.js');
    fs.writeFileSync(js, APP_JS);
    fs.writeFileSync(`${js}.br`, zlib.brotliCompressSync(APP_JS));
    fs.writeFileSync(`${js}.gz`, zlib.gzipSync(APP_JS));
    fs.writeFileSync(path.join(staticDir, 'assets', 'small-abc123.js'), 'console.log(1)');
    portal = await createTestPortal('sqlite');
    app = await buildApp({ config: { ...portal.config, staticDir }, db: portal.db });
    // A download: binary, over the threshold, a type that must never be compressed again (xlsx is a zip).
    app.get('/test-download', async (_req, reply) =>
      reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(Buffer.alloc(8000, 'a')),
    );
    app.get('/test-stream', async (_req, reply) => reply.type('application/octet-stream').send(fs.createReadStream(js)));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await portal?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  const api = { 'x-api-password': API_PASSWORD };

  it('sends the precompressed asset the client accepts, with Vary, and the plain file to a client that accepts none', async () => {
    const br = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.rawPayload.length).toBeLessThan(APP_JS.length / 3);
    expect(decoded(br)).toBe(APP_JS);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers['x-content-type-options']).toBe('nosniff'); // helmet's headers stay

    const gz = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toBe(APP_JS);
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);

    const plain = await app.inject({ url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_JS);
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answers HEAD and conditional requests of a precompressed asset', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.rawPayload.length).toBe(0);
    const first = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
    const again = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('never compresses a static file on the fly: small files go plain, outside /assets/ they are revalidated', async () => {
    const small = await app.inject({ url: '/assets/small-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(1)');
    const icon = await app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends index.html with the API password written in, no-cache, compressed for a client that accepts it', async () => {
    const plain = await app.inject({ url: '/' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain(`content="${API_PASSWORD}"`);
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(decoded(br)).toBe(plain.body);
    // The file itself is not served as it lies (its placeholder unfilled): another path of the app.
    const file = await app.inject({ url: '/index.html' });
    expect(file.headers['cache-control']).toBe('no-cache');
    expect(file.body).toBe(plain.body);
  });

  it('compresses an API answer over 1 kB for a client that accepts it, not a small one, not an error', async () => {
    const plain = await app.inject({ url: '/api/v1/visitor/countries', headers: api });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const gz = await app.inject({ url: '/api/v1/visitor/countries', headers: { ...api, 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(decoded(gz))).toEqual(plain.json());
    expect(gz.headers['cache-control']).toBeUndefined();
    const br = await app.inject({ url: '/api/v1/visitor/countries', headers: { ...api, 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(br))).toEqual(plain.json());

    const head = await app.inject({ method: 'HEAD', url: '/api/v1/visitor/countries', headers: { ...api, 'accept-encoding': 'gzip' } });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);

    const small = await app.inject({ url: '/api/v1/visitor/ping', headers: { ...api, 'accept-encoding': 'gzip, br' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    small.json();

    const missing = await app.inject({ url: '/api/v1/nothing/here', headers: { ...api, 'accept-encoding': 'gzip, br' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ errors: {} });
    const refused = await app.inject({ url: '/api/v1/visitor/countries', headers: { 'accept-encoding': 'gzip, br' } });
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(decoded(refused))).toMatchObject({ errors: {} });
  });

  it('leaves downloads alone: binary types and streams go as they are', async () => {
    const xlsx = await app.inject({ url: '/test-download', headers: { 'accept-encoding': 'gzip, br' } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.rawPayload.length).toBe(8000);
    const stream = await app.inject({ url: '/test-stream', headers: { 'accept-encoding': 'gzip, br' } });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body).toBe(APP_JS);
  });
});

describe('build step: precompressDir', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-precompress-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), APP_JS);
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.css'), `body { color: red; }\n`.repeat(100));
    fs.writeFileSync(path.join(dir, 'assets', 'tiny-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'assets', 'font-abc123.woff2'), Buffer.alloc(4000, 'a'));
    // over 1 kB but random: compression cannot make it smaller
    fs.writeFileSync(path.join(dir, 'assets', 'noise-abc123.txt'), crypto.randomBytes(3000));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz next to compressible files that decompress to the original; skips index.html, small, binary and incompressible files', async () => {
    const r = await precompressDir(dir);
    expect(r.compressed).toEqual(['assets/app-abc123.css', 'assets/app-abc123.js']);
    for (const f of r.compressed) {
      const original = fs.readFileSync(path.join(dir, f));
      const br = fs.readFileSync(path.join(dir, `${f}.br`));
      const gz = fs.readFileSync(path.join(dir, `${f}.gz`));
      expect(zlib.brotliDecompressSync(br).equals(original), f).toBe(true);
      expect(zlib.gunzipSync(gz).equals(original), f).toBe(true);
      expect(br.length, f).toBeLessThan(original.length);
    }
    const files = fs.readdirSync(dir, { recursive: true }).map(String).sort();
    expect(files.filter((f) => /\.(br|gz)$/.test(f))).toEqual([
      'assets/app-abc123.css.br',
      'assets/app-abc123.css.gz',
      'assets/app-abc123.js.br',
      'assets/app-abc123.js.gz',
    ]);
  });
});

describe("the built page's inline script and the Content-Security-Policy (issue 37)", () => {
  // build/prerender.ts writes one inline script into index.html (it picks the prerendered snapshot); the
  // server allows exactly that script, by its hash, on every answer.
  const SCRIPT = 'document.documentElement.setAttribute("data-prerender","/login")';
  const hash = `'sha256-${crypto.createHash('sha256').update(SCRIPT).digest('base64')}'`;
  const cspOf = async (index: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-csp-'));
    fs.writeFileSync(path.join(dir, 'index.html'), index);
    const portal = await createTestPortal('sqlite');
    const app = await buildApp({ config: { ...portal.config, staticDir: dir }, db: portal.db });
    try {
      const page = await app.inject({ url: '/' });
      const api = await app.inject({ url: '/api/v1/visitor/ping', headers: { 'x-api-password': API_PASSWORD } });
      expect(api.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
      return String(page.headers['content-security-policy']);
    } finally {
      await app.close();
      await portal.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it("allows the page's inline script by its hash, nothing else inline", async () => {
    const csp = await cspOf(`<!doctype html><head><script>${SCRIPT}</script></head><div id="root"></div>`);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src '))!;
    expect(scriptSrc.trim().split(/\s+/)).toEqual(['script-src', "'self'", hash]);
  });

  it("without an inline script, scripts from the portal's own address only (helmet's default)", async () => {
    const csp = await cspOf(INDEX);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src '))!;
    expect(scriptSrc.trim().split(/\s+/)).toEqual(['script-src', "'self'"]);
  });
});
