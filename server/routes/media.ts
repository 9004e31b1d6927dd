import path from 'node:path';
import type { App } from '../lib/typed.js';
import { isShowableImage } from '../lib/images.js';

const TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp' };
/** Verdicts kept per app (a stored name is never rewritten, so its verdict never changes); emptied when full. */
const VERDICTS_KEPT = 10_000;

/**
 * Profile pictures and logos at /media/<random name> (see server/lib/media.ts): images only, nosniff.
 * A file whose header declares more pixels than an upload may have now (lib/imageHeader.ts), or whose header
 * cannot be read, is not served (404): one stored before the check existed must not reach every browser
 * that shows it (issue 31). The files are at most 5 MB; each is read once and its verdict kept.
 */
export default async function mediaRoutes(app: App) {
  const verdicts = new Map<string, boolean>();
  const showable = async (name: string) => {
    let ok = verdicts.get(name);
    if (ok === undefined) {
      const data = await app.files.read('media', name).catch(() => null); // removed meanwhile: not found, not remembered
      if (!data) return false;
      ok = isShowableImage(data);
      if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
      verdicts.set(name, ok);
      if (!ok) app.log.warn({ name }, 'a stored image is withheld: its header is unreadable or over the pixel limits');
    }
    return ok;
  };

  app.get(
    '/media/:name',
    {
      schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string', pattern: '^[a-f0-9]{32}\\.(png|jpg|webp)$' } } } },
    },
    async (req, reply) => {
      const name = req.params.name ?? ''; // the route's path always has it
      const file = (await showable(name)) ? await app.files.open('media', name) : null;
      if (!file) return reply.status(404).send({ message: req.t('errors.notFound'), errors: {} });
      return reply
        .type(TYPES[path.extname(name)] ?? 'application/octet-stream')
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=86400')
        .send(file.stream);
    },
  );
}
