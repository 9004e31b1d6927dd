import { isUploadedFile } from '../plugins/forms.js';
import { ApiError, invalid } from './errors.js';
import { imageKind } from './files.js';

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * An uploaded image checked by its bytes (PNG, JPEG or WebP; server.md §8) and its size: answers the
 * bytes with the extension to store it under, or undefined when no file was sent. Anything else in the
 * field (the stored URL sent back, null) is not an upload. Over the limit: 413 naming the limit.
 */
export async function imageUpload(value: unknown, limit: number, field: string): Promise<{ data: Buffer; ext: string } | undefined> {
  if (!isUploadedFile(value)) {
    if (value !== null && value !== undefined && typeof value !== 'string') throw invalid({ [field]: 'validation.imageType' });
    return undefined;
  }
  if (value.data.length > limit) throw new ApiError(413, 'validation.imageTooLarge', { limit: mb(limit) });
  const kind = imageKind(value.data);
  if (!kind) throw invalid({ [field]: 'validation.imageType' });
  return { data: value.data, ext: kind.ext };
}
