import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type _Object } from '@aws-sdk/client-s3';
import type { FilesSetting } from '../config.js';
import {
  AREA_NAME,
  HOLD_REFRESH_MS,
  HOLD_STALE_MS,
  STORED_NAME,
  collect,
  newName,
  pendingMarker,
  removedMarker,
  type FileHold,
  type FileStore,
  type StoredFile,
} from './files.js';

type S3Setting = Extract<FilesSetting, { kind: 's3' }>;

const valid = (area: string, name: string | null | undefined): name is string => !!name && STORED_NAME.test(name) && AREA_NAME.test(area);
const missing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Files in an S3-compatible bucket (FILES_URL=s3://bucket/prefix, issue 32): the object
 * `<prefix><area>/<name>`, the same layout as DATA_DIR/files, and the marks as empty objects beside it
 * (`<area>/.<name>.pending`, `.removed`), their age their LastModified. A PUT is whole or nothing, so
 * there are no half-written leftovers. Backup holds are objects under `<prefix>.holds/`, rewritten every
 * minute while the backup runs; each removal looks for one (one LIST; removals are rare).
 *
 * Choices: request checksums only where S3 requires them (`WHEN_REQUIRED`): the SDK's default CRC32
 * headers are refused by several S3-compatible servers, and TLS plus the signature already protect the
 * bytes in transit; ages compare the server's LastModified with this process's clock, so the clocks
 * should agree to well under ORPHAN_FILE_MINUTES.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  readonly where: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(setting: S3Setting) {
    this.bucket = setting.bucket;
    this.prefix = setting.prefix;
    this.where = `s3://${setting.bucket}/${setting.prefix}${setting.endpoint ? ` at ${setting.endpoint}` : ''}`;
    this.client = new S3Client({
      region: setting.region,
      endpoint: setting.endpoint,
      forcePathStyle: setting.forcePathStyle,
      credentials: setting.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(area: string, name: string) {
    return `${this.prefix}${area}/${name}`;
  }

  private async putObject(key: string, body: Buffer) {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length }));
  }

  private async deleteObject(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Every object under `prefix`, page by page. */
  private async *objects(prefix: string): AsyncIterable<_Object> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) yield o;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async areas(): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, Delimiter: '/', ContinuationToken: token }));
      for (const p of page.CommonPrefixes ?? []) {
        const area = (p.Prefix ?? '').slice(this.prefix.length, -1);
        if (AREA_NAME.test(area)) out.push(area);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async store(area: string, data: Buffer, ext: string) {
    const name = newName(ext);
    await this.putObject(this.key(area, name), data);
    return name;
  }

  async storePending(area: string, data: Buffer, ext: string) {
    const name = newName(ext);
    // the mark first, so a crash between the two leaves nothing unmarked
    await this.putObject(this.key(area, pendingMarker(name)), Buffer.alloc(0));
    await this.putObject(this.key(area, name), data);
    return name;
  }

  async put(area: string, name: string, data: Buffer, opts: { pending?: boolean } = {}) {
    if (!valid(area, name)) throw new Error(`not a stored file's name: ${area}/${name}`);
    if (opts.pending) await this.markPending(area, name);
    const size = await this.size(area, name);
    if (size === null) return this.putObject(this.key(area, name), data);
    if (size !== data.length) throw new Error(`${area}/${name} is stored already with another size (${size}, not ${data.length})`);
  }

  async size(area: string, name: string) {
    if (!valid(area, name)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(area, name) }));
      return Number(head.ContentLength ?? 0);
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async open(area: string, name: string) {
    if (!valid(area, name)) return null;
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(area, name) }));
      return { size: Number(got.ContentLength ?? 0), stream: got.Body as Readable };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async read(area: string, name: string) {
    const file = await this.open(area, name);
    return file ? collect(file.stream) : null;
  }

  async remove(area: string, name: string | null | undefined) {
    if (!valid(area, name)) return;
    if (await this.held()) return this.putObject(this.key(area, removedMarker(name)), Buffer.alloc(0));
    await this.deleteObject(this.key(area, name));
  }

  async markPending(area: string, name: string | null | undefined) {
    if (!valid(area, name)) return;
    await this.putObject(this.key(area, pendingMarker(name)), Buffer.alloc(0));
  }

  async settle(area: string, name: string | null | undefined, kept: boolean) {
    if (!valid(area, name)) return;
    if (!kept) await this.remove(area, name);
    await this.deleteObject(this.key(area, pendingMarker(name)));
  }

  async *list(): AsyncIterable<StoredFile> {
    for (const area of await this.areas()) {
      const base = `${this.prefix}${area}/`;
      const files: Array<{ name: string; size: number }> = [];
      const marked = new Set<string>();
      for await (const o of this.objects(base)) {
        const rest = (o.Key ?? '').slice(base.length);
        if (STORED_NAME.test(rest)) files.push({ name: rest, size: Number(o.Size ?? 0) });
        else if (rest.endsWith('.pending')) marked.add(rest);
      }
      for (const f of files) yield { area, name: f.name, size: f.size, pending: marked.has(pendingMarker(f.name)) };
    }
  }

  /** The marks of each area (names starting with a dot) older than minAgeMs. */
  private async marks(suffix: string, minAgeMs: number, now: number) {
    const out: Array<{ area: string; name: string }> = [];
    for (const area of await this.areas()) {
      const base = `${this.prefix}${area}/`;
      for await (const o of this.objects(`${base}.`)) {
        const m = /^\.(.+)\.(pending|removed)$/.exec((o.Key ?? '').slice(base.length));
        if (!m || m[2] !== suffix || !STORED_NAME.test(m[1])) continue;
        if (now - (o.LastModified?.getTime() ?? 0) >= minAgeMs) out.push({ area, name: m[1] });
      }
    }
    return out;
  }

  pendingMarks(minAgeMs: number, now = Date.now()) {
    return this.marks('pending', minAgeMs, now);
  }

  async removeLeftovers() {
    return [];
  }

  private async liveHolds(now = Date.now()) {
    const live: string[] = [];
    for await (const o of this.objects(`${this.prefix}.holds/`)) {
      if (now - (o.LastModified?.getTime() ?? 0) < HOLD_STALE_MS) live.push(o.Key ?? '');
      else await this.deleteObject(o.Key ?? '');
    }
    return live;
  }

  private async held() {
    return (await this.liveHolds()).length > 0;
  }

  async hold(): Promise<FileHold> {
    const key = `${this.prefix}.holds/${crypto.randomBytes(8).toString('hex')}`;
    const body = () => Buffer.from(JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
    await this.putObject(key, body());
    const timer = setInterval(() => void this.putObject(key, body()).catch(() => {}), HOLD_REFRESH_MS);
    timer.unref();
    return {
      release: async () => {
        clearInterval(timer);
        await this.deleteObject(key);
      },
    };
  }

  async finishRemovals() {
    if (await this.held()) return [];
    const removed: string[] = [];
    for (const { area, name } of await this.marks('removed', 0, Date.now())) {
      await this.deleteObject(this.key(area, name));
      await this.deleteObject(this.key(area, removedMarker(name)));
      removed.push(`${area}/${name}`);
    }
    return removed;
  }

  async close() {
    this.client.destroy();
  }
}
