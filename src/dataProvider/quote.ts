import { apiRequest } from '../api/http';
import { namedFile } from './tariffs';

/**
 * The quote (calculator document §4): `costRequest` prices a shipment. A visitor prices anonymously (no
 * bearer even when a session lingers). The answer's type is the calculator's (`CostAnswer`); a refusal
 * arrives as `{status: false, message}` and is for the screen to show.
 */
export const quoteMethods = () => ({
  costRequest: <T>(request: unknown, opts: { anonymous?: boolean } = {}) =>
    apiRequest<T>('/visitor/costRequest', { method: 'POST', body: request, anonymous: !!opts.anonymous }),
  /**
   * The same quote as a PDF (what the caller's quote shows, its number, date and validity), named by the server
   * after its number (`preventivo-P-2026-000123.pdf`); a refusal is thrown (422).
   */
  quotePdf: async (request: unknown, opts: { anonymous?: boolean } = {}): Promise<Blob> =>
    namedFile(await apiRequest<Response>('/visitor/costRequest/pdf', { method: 'POST', body: request, anonymous: !!opts.anonymous, raw: true })),
});
