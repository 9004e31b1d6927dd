import type { Kind } from './roles';

/**
 * API keys (issue 23, docs/integrations.md): what each scope lets a key call, declared here and nowhere
 * else. A key is sent as `Authorization: Bearer fpk_live_…`; it acts for its company with the role of the
 * user who made it, and only on the routes of its scopes (every other route answers 403; account, settings
 * and key management never accept a key). The route's own policy still applies on top, so a key never
 * does more than its user could: a scope lists the routes of both namespaces, each kind reaches its own.
 * Routes are named as the server registers them under /api/v1: `METHOD /path` (with `:id` parameters).
 */
export const API_KEY_SCOPES = ['quotes', 'requests:read', 'requests:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The key's visible start: recognisable in a configuration file or a leaked log. */
export const API_KEY_PREFIX = 'fpk_live_';

/** Characters of the random part shown after the prefix in lists (`fpk_live_ab12`). */
export const API_KEY_SHOWN = 4;

/** The namespaces whose users manage their company's keys: the carrier kind, end users. */
export const API_KEY_NAMESPACES = { company: 'carrier', enduser: 'enduser' } as const satisfies Record<string, Kind>;

const requestRoutes = (ns: 'company' | 'enduser') => [
  `GET /${ns}/transport_requests`,
  `GET /${ns}/transport_requests/show/:id`,
  `GET /${ns}/transport_requests/documents/:id`,
  `GET /${ns}/transport_requests/waybill/:id`,
  `GET /${ns}/transport_requests/pod/:id`,
  `GET /${ns}/transport_requests/labels/:id`,
];

/** Scope → the routes a key with it may call. */
export const API_KEY_ROUTES: Record<ApiKeyScope, readonly string[]> = {
  // the quote, and the lookups filling its form (places, and a carrier's customers and categories)
  quotes: [
    'POST /visitor/costRequest',
    'POST /visitor/costRequest/pdf',
    'GET /visitor/country_list',
    'GET /visitor/province_list',
    'GET /visitor/city_list',
    'GET /visitor/postal_code_list',
    'GET /visitor/island_list',
    'GET /visitor/category_list',
    'GET /visitor/companies_list',
    'GET /visitor/enduser_list',
  ],
  'requests:read': [...requestRoutes('company'), ...requestRoutes('enduser'), 'GET /visitor/transport_request_status_list', 'GET /visitor/document_types_list'],
  // an end user books; the carrier kind edits and moves its requests through their statuses
  'requests:write': [
    'POST /enduser/transport_requests/newRequest',
    'POST /company/transport_requests/updateTransportRequestStatus',
    'POST /company/transport_requests/updateRequest',
  ],
};

/** The scopes a user of each kind may give a key (support users do not quote; admins have no keys). */
export const API_KEY_SCOPES_OF: Partial<Record<Kind, readonly ApiKeyScope[]>> = {
  carrier: API_KEY_SCOPES,
  enduser: API_KEY_SCOPES,
};

/** The scopes that open a route (`POST /visitor/costRequest`), none for a route no key may call. */
export function scopesOfRoute(route: string): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((s) => API_KEY_ROUTES[s].includes(route));
}

export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);
