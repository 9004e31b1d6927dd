import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { QuoteFields } from './payload.js';

/** The server's own price of a quoted request, in cents, and who sells it to whom. */
export type Repriced = {
  ok: true;
  carrierId: number;
  endUserCompanyId: number | null;
  cost: number;
  adminFee: number;
  leadTime: number | null;
  /** the quote date (Europe/Rome) */
  date: string;
  ratio: string | null;
  /** the band of each pallet (express) */
  palletTypes: string[];
};

/**
 * Prices a request's quote again with the costRequest route's quote function (server.md §5).
 * PENDING: wired to the calculator's quote function once it is on main (issue 8).
 */
export async function repriceQuote(
  _app: FastifyInstance, _req: FastifyRequest, _caller: 'enduser' | 'visitor',
  _quote: QuoteFields & { adr: number; taillift: number }, _serviceClass: 'SILVER' | 'GOLD' | null,
): Promise<Repriced | { ok: false; message: string }> {
  throw new ApiError(503, 'errors.internal');
}
