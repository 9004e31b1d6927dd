import type { App } from '../../lib/typed.js';
import { bool, obj, str } from '../../lib/answers.js';

/** GET /visitor/ping: a trivial public JSON answer (health checks, and the baseline of the benchmarks). */
export default async function pingRoutes(app: App) {
  app.get(
    '/visitor/ping',
    {
      config: { policy: 'public' },
      schema: { tags: ['visitor'], summary: 'Answers the server time (health check).', response: { 200: obj({ status: bool, time: str }) } },
    },
    async () => ({ status: true, time: new Date().toISOString() }),
  );
}
