import type { FastifyRequest } from 'fastify';

/** "users (2), tariffs (14)" in the caller's language, for the refusal of a delete. */
export function dependentsText(req: FastifyRequest, deps: Record<string, number>) {
  return Object.entries(deps)
    .map(([what, n]) => `${req.t(`dependents.${what}`)} (${n})`)
    .join(', ');
}
