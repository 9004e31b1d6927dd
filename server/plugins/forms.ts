import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** A file that arrived in a multipart body, held in memory (every upload limit is a few MB). */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

export const isUploadedFile = (v: unknown): v is UploadedFile =>
  !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data);

/**
 * Multipart bodies become plain objects before validation, so a route's JSON schema checks them
 * the same way as JSON: `name[]` fields become arrays named `name`, text parts their values,
 * file parts `UploadedFile`s. An empty file input (no name, no bytes) counts as absent.
 */
async function forms(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (!req.isMultipart() || !req.body || typeof req.body !== 'object') return;
    const out: Record<string, unknown> = {};
    for (const [rawKey, raw] of Object.entries(req.body as Record<string, any>)) {
      const isArray = rawKey.endsWith('[]');
      const key = isArray ? rawKey.slice(0, -2) : rawKey;
      const parts = Array.isArray(raw) ? raw : [raw];
      const values: unknown[] = [];
      for (const part of parts) {
        if (part?.type === 'file') {
          const data: Buffer = await part.toBuffer();
          if (!part.filename && data.length === 0) continue;
          values.push({ filename: String(part.filename ?? 'file'), mimetype: String(part.mimetype ?? ''), data } satisfies UploadedFile);
        } else if (part?.type === 'field') {
          values.push(part.value);
        }
      }
      out[key] = isArray || values.length > 1 ? values : values[0];
      if (out[key] === undefined) delete out[key];
    }
    req.body = out;
  });
}

export default fp(forms, { name: 'forms', dependencies: [] });
