import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FilesSetting } from '../../server/config.js';

/**
 * A real S3-compatible HTTP server on 127.0.0.1 for the S3 file store's tests: s3rver (npm, a Koa
 * server speaking the S3 REST protocol, keeping objects in a temporary folder; it checks SigV4
 * signatures against its one key pair S3RVER/S3RVER). Null when it cannot start here: the tests that
 * need it then say so and skip.
 */
export async function startS3(): Promise<{ setting(prefix?: string): Extract<FilesSetting, { kind: 's3' }>; close(): Promise<void> } | null> {
  let S3rver: typeof import('s3rver').default;
  try {
    S3rver = (await import('s3rver')).default;
  } catch {
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: 'portal-files', configs: [] }] });
  const { port } = await server.run();
  return {
    setting: (prefix = `t${crypto.randomBytes(4).toString('hex')}/`) => ({
      kind: 's3',
      bucket: 'portal-files',
      prefix,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
