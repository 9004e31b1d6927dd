import path from 'node:path';
import type { App } from '../lib/typed.js';

const TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp' };

/** Profile pictures and logos at /media/<random name> (see server/lib/media.ts): images only, nosniff. */
export default async function mediaRoutes(app: App) {
  app.get(
    '/media/:name',
    {
      schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string', pattern: '^[a-f0-9]{32}\\.(png|jpg|webp)$' } } } },
    },
    async (req, reply) => {
      const name = req.params.name ?? ''; // the route's path always has it
      const file = await app.files.open('media', name);
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
