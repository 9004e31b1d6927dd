import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/errors.js';

/** A file that arrived in a multipart body, held in memory (every upload limit is a few MB). */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

export const isUploadedFile = (v: unknown): v is UploadedFile => !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data);

/**
 * Multipart bodies become plain objects before validation, so a route's JSON schema checks them
 * the same way as JSON: `name[]` fields become arrays named `name`, text parts their values,
 * file parts `UploadedFile`s. An empty file input (no name, no bytes) counts as absent.
 *
 * The parts are read here (not by @fastify/multipart's attachFieldsToBody) so that a body the parser
 * cannot read — no boundary, cut short, parts without a name — is the client's error: 400. The
 * parser's own limits (413) and its prototype-name refusal (400) keep their statuses.
 */
/**
 * The error @fastify/multipart raises for a file past its limit, raised before reading: a route's errorHandler
 * that turns it into its field's 422 (the POD) keeps working, and every other route answers its 413.
 */
const tooLarge = () => Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 });

async function forms(app: FastifyInstance) {
  app.addHook('preValidation', async (req, reply) => {
    if (!req.isMultipart()) return;
    // A body past the route's size is refused before a byte of it is read, when its length is declared (issue
    // 36, `npm run bench:hostile` with BENCH_KIND=pod: a 6 MB POD was read to its end before its 422). Without
    // a declared length the parser's per-file limit stops it. Either way the connection closes after the answer,
    // so the rest of an oversized body is not read to keep the connection open.
    const declared = Number(req.headers['content-length']);
    const maxBody = req.routeOptions.config?.uploadMaxBytes;
    if (maxBody !== undefined && Number.isFinite(declared) && declared > maxBody) {
      reply.header('connection', 'close');
      throw tooLarge();
    }
    const out: Record<string, unknown> = Object.create(null);
    const arrays = new Set<string>();
    const add = (rawKey: string, value: unknown) => {
      const isArray = rawKey.endsWith('[]');
      const key = isArray ? rawKey.slice(0, -2) : rawKey;
      if (isArray) arrays.add(key);
      ((out[key] ??= []) as unknown[]).push(value);
    };
    try {
      for await (const part of req.parts(req.routeOptions.config?.multipartOptions)) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          if (!part.filename && data.length === 0) continue;
          add(part.fieldname, { filename: String(part.filename ?? 'file'), mimetype: String(part.mimetype ?? ''), data } satisfies UploadedFile);
        } else {
          add(part.fieldname, part.value);
        }
      }
    } catch (err) {
      const status = (err as { statusCode?: unknown }).statusCode;
      if (status === 413) reply.header('connection', 'close');
      if (typeof status === 'number') throw err;
      // busboy's own errors ("Unexpected end of multipart data", "Multipart: Boundary not found", …) carry no status.
      throw new ApiError(400, 'errors.malformedBody', { format: 'multipart/form-data' });
    }
    const body: Record<string, unknown> = {};
    for (const [key, values] of Object.entries(out) as Array<[string, unknown[]]>) {
      body[key] = arrays.has(key) || values.length > 1 ? values : values[0];
    }
    req.body = body;
  });
}

export default fp(forms, { name: 'forms', dependencies: [] });
