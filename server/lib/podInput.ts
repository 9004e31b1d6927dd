import { isUploadedFile, type UploadedFile } from '../plugins/forms.js';
import { readImageHeader, withinImageLimits, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './imageHeader.js';
import { imageKind } from './files.js';
import type { ImageProblem } from './images.js';
import { MIME, sizeText } from '../../model/fileParts.js';
import { POD_FILE_MAX, POD_SIGNATURE_MAX, POD_SIGNATURE_SIDE, type PodKind } from '../../model/proofOfDelivery.js';

/** The POD's fields of the status route's body (multipart; model/proofOfDelivery.ts POD_FIELDS). */
export interface PodFields {
  pod_name?: string;
  pod_notes?: string;
  pod_file?: unknown;
  pod_signature?: unknown;
}

/** A checked POD, ready to be stored. */
export interface PodInput {
  name: string;
  notes: string | null;
  kind: PodKind;
  data: Buffer;
  ext: string;
  content_type: string;
  width: number | null;
  height: number | null;
}

/** Whether the body carries any part of a POD (an admin's delivery without one records none). */
export const hasPodFields = (b: PodFields) =>
  (typeof b.pod_name === 'string' && b.pod_name.trim() !== '') ||
  (typeof b.pod_notes === 'string' && b.pod_notes.trim() !== '') ||
  !!b.pod_file ||
  !!b.pod_signature;

/**
 * A PDF starts with `%PDF-`. ISO 32000 lets readers accept it within the first 1024 bytes; we take it only at
 * the start (every scanner app and PDF writer puts it there), so nothing else can pass as a PDF.
 */
const isPdf = (data: Buffer) => data.length > 8 && data.toString('latin1', 0, 5) === '%PDF-';

/**
 * Checks a delivery's POD (issue 36): the receiver's name, exactly one of the document (image or PDF) and the
 * drawn signature (a PNG), the notes. Every problem of the body at once, per field, as `invalid()` takes them;
 * the kind of a file is read from its bytes (never from its name or declared type), an image's pixel size from
 * its header (nothing is decoded). Answers the problems or the checked POD.
 */
export function checkPod(b: PodFields): { problems: Record<string, ImageProblem> } | { pod: PodInput } {
  const problems: Record<string, ImageProblem> = {};
  const name = (b.pod_name ?? '').trim();
  // its length is the body schema's (POD_NAME_MAX)
  if (!name) problems.pod_name = 'pod.nameRequired';
  const file = isUploadedFile(b.pod_file) ? b.pod_file : null;
  const signature = isUploadedFile(b.pod_signature) ? b.pod_signature : null;
  if (!file && !signature) {
    problems.pod_file = 'pod.fileOrSignature';
    problems.pod_signature = 'pod.fileOrSignature';
  } else if (file && signature) {
    problems.pod_file = 'pod.notBoth';
    problems.pod_signature = 'pod.notBoth';
  }
  let checked: Omit<PodInput, 'name' | 'notes'> | null = null;
  if (file && !signature) {
    const r = checkFile(file);
    if ('problem' in r) problems.pod_file = r.problem;
    else checked = r;
  } else if (signature && !file) {
    const r = checkSignature(signature);
    if ('problem' in r) problems.pod_signature = r.problem;
    else checked = r;
  }
  if (Object.keys(problems).length || !checked) return { problems };
  return { pod: { name, notes: b.pod_notes?.trim() || null, ...checked } };
}

type Checked = Omit<PodInput, 'name' | 'notes'> | { problem: ImageProblem };

function dimensions(data: Buffer, side: number, pixels: number): { width: number; height: number } | { problem: ImageProblem } {
  const header = readImageHeader(data);
  if (!header.ok) return { problem: 'validation.imageUnreadable' };
  if (!withinImageLimits(header.width, header.height) || header.width > side || header.height > side || header.width * header.height > pixels) {
    return {
      problem: {
        key: 'validation.imageDimensions',
        params: { width: header.width, height: header.height, side, megapixels: pixels / 1_000_000 },
      },
    };
  }
  return { width: header.width, height: header.height };
}

/** The signed document: a JPEG, PNG or WebP photo (its pixel size within the portal's limits) or a PDF. */
function checkFile(f: UploadedFile): Checked {
  if (f.data.length > POD_FILE_MAX) return { problem: { key: 'pod.tooLarge', params: { limit: sizeText(POD_FILE_MAX) } } };
  if (isPdf(f.data)) return { kind: 'file', data: f.data, ext: '.pdf', content_type: MIME.pdf, width: null, height: null };
  const kind = imageKind(f.data);
  if (!kind) return { problem: 'pod.fileType' };
  const size = dimensions(f.data, MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS);
  if ('problem' in size) return size;
  return { kind: 'file', data: f.data, ext: kind.ext, content_type: kind.mime, ...size };
}

/** The drawn signature: a PNG, small (it is drawn into the request's PDF). */
function checkSignature(f: UploadedFile): Checked {
  if (f.data.length > POD_SIGNATURE_MAX) return { problem: { key: 'pod.tooLarge', params: { limit: sizeText(POD_SIGNATURE_MAX) } } };
  const kind = imageKind(f.data);
  if (kind?.mime !== MIME.png) return { problem: 'pod.signatureType' };
  const size = dimensions(f.data, POD_SIGNATURE_SIDE, POD_SIGNATURE_SIDE * POD_SIGNATURE_SIDE);
  if ('problem' in size) return size;
  return { kind: 'signature', data: f.data, ext: kind.ext, content_type: MIME.png, ...size };
}

/** An ISO-8601 time with its zone ("2026-11-29T08:30:00Z", "…+01:00"): a time without a zone means nothing certain. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
/** Clocks of phones disagree by a little: a time up to this far ahead is taken as now. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * A pickup or delivery time sent by the carrier: absent → now; else ISO with its zone, not in the future (beyond
 * CLOCK_SKEW_MS, then clamped to now), not before `notBefore`. Answers the ISO UTC text or the problem.
 */
export function eventTime(value: string | undefined, now: Date, notBefore?: string | null): { at: string } | { problem: ImageProblem } {
  if (value === undefined || value.trim() === '') return { at: now.toISOString() };
  const v = value.trim();
  const t = ISO_TIME.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) return { problem: 'pod.timeFormat' };
  if (t > now.getTime() + CLOCK_SKEW_MS) return { problem: 'pod.timeFuture' };
  const at = new Date(Math.min(t, now.getTime())).toISOString();
  if (notBefore && at < notBefore) return { problem: 'pod.beforePickup' };
  return { at };
}
