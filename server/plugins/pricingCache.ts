import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from './session.js';
import { invalidatePricingData } from '../repositories/pricingData.js';

/** A successful write of an admin or a carrier: a tariff import or delete, a company or settings edit. */
const WRITE = new RegExp(`^${API_PREFIX}/(admin|company)/`);
const GET_DELETE = /\/destroy(\/|\?|$)/; // the company namespace deletes with GETs (calculator document §7)

/**
 * Keeps the per-process tariff cache of the quotes (repositories/pricingData.ts) honest: any successful
 * admin or company write may change what prices a quote (tariff tables, rate sheets, categories, a
 * company's percentages and fees, the visitor carrier), so it empties the cache of this process. Writes
 * are rare next to quotes; other processes see the change within PRICING_CACHE_MS.
 */
async function pricingCache(app: FastifyInstance) {
  // before the answer leaves, so a quote asked right after the write never sees the old rows
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode < 400 && WRITE.test(req.url) && (req.method !== 'GET' || GET_DELETE.test(req.url))) invalidatePricingData(app.db);
    return payload;
  });
}

export default fp(pricingCache, { name: 'pricing-cache' });
