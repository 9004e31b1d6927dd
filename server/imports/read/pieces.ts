import { pace } from './pace.js';
import { limitError, type ReadLimits } from './types.js';

/**
 * Cutting a streamed XML part into pieces that each end with a closing tag (`</row>`, `</x:row>`,
 * `</table:table-row>`): a reader walks the sheet one row at a time while the part is still inflating,
 * and holds at most one row's bytes (`ReadLimits.rowBytes`) plus one chunk. A piece longer than that
 * is refused as too complex as soon as it passes the limit, however long the rest of it would be.
 */

const isWord = (b: number | undefined) => b !== undefined && ((b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 95);
const isNameChar = (b: number | undefined) => isWord(b) || b === 0x2d || b === 0x2e;

/**
 * The offset just past the first `</tag>` or `</prefix:tag>` at or after `from`, or -1. `tag` may hold
 * its own prefix (`table:table-row`); a longer name ending in it (`</x:sheetrow>`) does not match.
 */
export function closeTagEnd(buf: Buffer, tag: string, from = 0, to = buf.length): number {
  const needle = `${tag}>`;
  for (let i = buf.indexOf(needle, from, 'latin1'); i >= 0 && i + needle.length <= to; i = buf.indexOf(needle, i + 1, 'latin1')) {
    let s = i - 1;
    if (buf[s] === 0x3a) {
      s--;
      while (s > 0 && isNameChar(buf[s])) s--;
      if (!isNameChar(buf[s + 1])) continue;
    }
    if (buf[s] !== 0x2f || buf[s - 1] !== 0x3c) continue;
    return i + needle.length;
  }
  return -1;
}

/**
 * The byte range of the first start tag `<tag …>` or `<prefix:tag …>` at or after `from` (self-closed
 * or not, `selfClosed` telling which), or null.
 */
export function openTag(buf: Buffer, tag: string, from = 0, to = buf.length): { start: number; end: number; selfClosed: boolean } | null {
  for (let i = buf.indexOf(tag, from, 'latin1'); i >= 0 && i < to; i = buf.indexOf(tag, i + 1, 'latin1')) {
    let lt = i - 1;
    if (buf[lt] === 0x3a) {
      lt--;
      while (lt > 0 && isNameChar(buf[lt])) lt--;
      if (!isNameChar(buf[lt + 1])) continue;
    }
    if (buf[lt] !== 0x3c || isNameChar(buf[i + tag.length]) || buf[i + tag.length] === 0x3a) continue;
    const gt = buf.indexOf(0x3e, i);
    if (gt < 0 || gt >= to) return null;
    return { start: lt, end: gt + 1, selfClosed: buf[gt - 1] === 0x2f };
  }
  return null;
}

/**
 * Splits a stream of chunks into pieces each ending just after `</tag>` (any prefix), then one last
 * piece with what follows the last such tag (possibly empty). Pieces are fresh Buffers or views of one
 * chunk; the caller decodes each before asking for the next.
 */
export async function* pieces(
  chunks: AsyncIterable<Buffer>,
  tag: string,
  limits: Pick<ReadLimits, 'rowBytes' | 'rows' | 'columns'>,
): AsyncGenerator<Buffer, void, undefined> {
  let pending: Buffer = Buffer.alloc(0);
  // Where the search for the next closing tag resumes: what was already searched is not searched again.
  let scanned = 0;
  const overlap = tag.length + 40;
  for await (const chunk of chunks) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let from = 0;
    for (;;) {
      const end = closeTagEnd(pending, tag, Math.max(from, scanned - overlap));
      if (end < 0) break;
      pace();
      yield pending.subarray(from, end);
      from = end;
      scanned = end;
    }
    pending = from ? pending.subarray(from) : pending;
    scanned = Math.max(0, pending.length - overlap);
    if (pending.length > limits.rowBytes) throw limitError('complex', limits as ReadLimits);
    // A view of a chunk would keep the chunk; a short remainder is copied so the chunk can go.
    if (from && pending.length < chunk.length / 4) pending = Buffer.from(pending);
  }
  yield pending;
}
