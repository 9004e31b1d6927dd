import { isUploadedFile } from '../plugins/forms.js';
import { ApiError, invalid } from './errors.js';
import { imageKind } from './files.js';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, readImageHeader, withinImageLimits } from './imageHeader.js';

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A field's problem, as `invalid()` takes it. */
export type ImageProblem = string | { key: string; params?: Record<string, unknown> };

/**
 * What is wrong with an uploaded image's bytes, or null: not a PNG, JPEG or WebP (`typeKey`, the caller's
 * message), a header that cannot be read (cut short, malformed, contradicting itself), or a declared size
 * past the limits (lib/imageHeader.ts: MAX_IMAGE_SIDE per side, MAX_IMAGE_PIXELS in all). Read from the
 * header only: nothing is decoded. Every image upload goes through here (logos, profile pictures, the
 * access request's logo).
 */
export function imageProblem(data: Buffer, typeKey: string): { problem: ImageProblem } | { ext: string; mime: string } {
  const kind = imageKind(data);
  if (!kind) return { problem: typeKey };
  const header = readImageHeader(data);
  if (!header.ok) return { problem: 'validation.imageUnreadable' };
  if (!withinImageLimits(header.width, header.height)) {
    return {
      problem: {
        key: 'validation.imageDimensions',
        params: { width: header.width, height: header.height, side: MAX_IMAGE_SIDE, megapixels: MAX_IMAGE_PIXELS / 1_000_000 },
      },
    };
  }
  return kind;
}

/** Whether stored image bytes may be shown or embedded (the same checks: a file stored before them may fail them). */
export function isShowableImage(data: Buffer): boolean {
  const header = readImageHeader(data);
  return header.ok && withinImageLimits(header.width, header.height);
}

/**
 * An uploaded image checked by its bytes (PNG, JPEG or WebP; server.md §8), its size and its declared
 * pixel size (imageProblem): answers the bytes with the extension to store it under, or undefined when no
 * file was sent. Anything else in the field (the stored URL sent back, null) is not an upload. Over the
 * byte limit: 413 naming the limit; a wrong kind, an unreadable header or too many pixels: 422 on the field.
 */
export async function imageUpload(value: unknown, limit: number, field: string): Promise<{ data: Buffer; ext: string } | undefined> {
  if (!isUploadedFile(value)) {
    if (value !== null && value !== undefined && typeof value !== 'string') throw invalid({ [field]: 'validation.imageType' });
    return undefined;
  }
  if (value.data.length > limit) throw new ApiError(413, 'validation.imageTooLarge', { limit: mb(limit) });
  const checked = imageProblem(value.data, 'validation.imageType');
  if ('problem' in checked) throw invalid({ [field]: checked.problem });
  return { data: value.data, ext: checked.ext };
}
