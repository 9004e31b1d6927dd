import type { FastifyRequest } from 'fastify';
import { unauthenticated } from './errors.js';

/**
 * The tenant of the caller, always from the token (server.md §2): the carrier company whose data a
 * request may touch. Carrier, Reseller, Carrier Users and Support: their own company; Enduser: its
 * company's carrier. Admins have no tenant (null: full scope).
 */
export function carrierScope(req: FastifyRequest): number | null {
  const u = req.user;
  if (!u) throw unauthenticated();
  switch (u.kind) {
    case 'admin':
      return null;
    case 'enduser':
      return u.carrier_id ?? -1;
    default:
      return u.company_id;
  }
}
