/** The data resource the request list reads (kept apart so the eager index.tsx needs no screen code). */
export const REQUESTS_RESOURCE = 'transport_requests';
