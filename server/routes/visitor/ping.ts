import type { FastifyInstance } from 'fastify';

/** GET /visitor/ping: a trivial public JSON answer (health checks, and the baseline of the benchmarks). */
export default async function pingRoutes(app: FastifyInstance) {
  app.get('/visitor/ping', {
    config: { policy: 'public' },
    schema: { tags: ['visitor'], response: { 200: { type: 'object', properties: { status: { type: 'boolean' }, time: { type: 'string' } } } } },
  }, async () => ({ status: true, time: new Date().toISOString() }));
}
