import { apiRequest } from '../api/http';
import type { TrackAnswer } from '../../model/publicTracking';

/** Public tracking (the /track page, docs/tracking.md): a request's status and timeline by its number and destination postal code. */
export const trackingMethods = () => ({
  trackRequest: (code: string, postalCode: string, signal?: AbortSignal) =>
    apiRequest<TrackAnswer>('/visitor/track', { query: { code, postal_code: postalCode }, signal, anonymous: true }).then((a) => a.data),
});
