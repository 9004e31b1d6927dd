import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Policy } from '../fastify.js';
import type { Kind } from '../../model/roles.js';
import { API_KEY_ROUTES, API_KEY_SCOPES, scopesOfRoute } from '../../model/apiKeys.js';
import { registerMessages } from '../i18n/index.js';
import { apiKeysRepo } from '../repositories/apiKeys.js';
import { ApiError } from './errors.js';
import { HitBatcher } from './hitBatcher.js';

registerMessages({
  en: {
    'apiKeys.unknownKey': 'This API key is not valid: check that it was copied whole.',
    'apiKeys.revokedKey': 'This API key has been revoked: create a new one under Settings → API keys.',
    'apiKeys.inactiveKey': 'The user who created this API key, or their company, is no longer active: the key works again once they are re-activated.',
    'apiKeys.outOfScope': 'This API key may not call this route: its scopes do not include it.',
    'apiKeys.tooMany': 'This API key has made too many calls: wait {seconds} seconds.',
  },
  it: {
    'apiKeys.unknownKey': 'Questa chiave API non è valida: verifica di averla copiata per intero.',
    'apiKeys.revokedKey': 'Questa chiave API è stata revocata: creane una nuova in Impostazioni → Chiavi API.',
    'apiKeys.inactiveKey':
      'L’utente che ha creato questa chiave API, o la sua azienda, non è più attivo: la chiave funzionerà di nuovo quando sarà riattivato.',
    'apiKeys.outOfScope': 'Questa chiave API non può chiamare questa funzione: non rientra nei suoi ambiti.',
    'apiKeys.tooMany': 'Questa chiave API ha fatto troppe chiamate: attendi {seconds} secondi.',
  },
  fr: {
    'apiKeys.unknownKey': 'Cette clé API n’est pas valide : vérifiez qu’elle a été copiée en entier.',
    'apiKeys.revokedKey': 'Cette clé API a été révoquée : créez-en une nouvelle dans Paramètres → Clés API.',
    'apiKeys.inactiveKey': 'L’utilisateur qui a créé cette clé API, ou son entreprise, n’est plus actif : la clé fonctionnera de nouveau une fois réactivé.',
    'apiKeys.outOfScope': "Cette clé API ne peut pas appeler cette fonction : ses portées ne l'incluent pas.",
    'apiKeys.tooMany': 'Cette clé API a fait trop d’appels : attendez {seconds} secondes.',
  },
});

const MINUTE = 60_000;
const API_PREFIX = '/api/v1';

/**
 * A request made with an API key (model/apiKeys.ts, docs/integrations.md): the key resolves to its
 * creator as it is now (401 when unknown, revoked, or its user or company inactive, the message saying
 * which), counts one call
 * in its minute (shared by every server process through `rate_limits`; past API_KEY_RATE_PER_MINUTE a
 * 429 with Retry-After, the seconds left in the minute), and may reach only the routes of its scopes
 * (403). The route's own policy is checked afterwards, as for a session (plugins/session.ts).
 */
export function apiKeyAuth(app: FastifyInstance) {
  const keys = apiKeysRepo(app.db, { onTouchError: (err) => app.log.warn({ err }, 'last_used_at of an API key not updated') });
  const hits = new HitBatcher(app.db, MINUTE);
  const limit = app.config.apiKeyRatePerMinute;

  return async function authenticate(req: FastifyRequest, key: string) {
    const user = await keys.resolve(key);
    // unknown, revoked, or its user or company inactive: 401, saying which
    if ('refused' in user) throw new ApiError(401, `apiKeys.${user.refused}Key`);
    if ((await hits.hit(`apikey:${user.apiKey.id}`)) > limit) {
      const seconds = Math.max(1, Math.ceil((MINUTE - (Date.now() % MINUTE)) / 1000));
      const err = new ApiError(429, 'apiKeys.tooMany', { seconds });
      err.headers = { 'retry-after': String(seconds) };
      throw err;
    }
    const url = req.routeOptions.url;
    // an unknown path goes on to the JSON 404, as for every caller
    if (url !== undefined) {
      const route = `${req.method === 'HEAD' ? 'GET' : req.method} ${url.slice(API_PREFIX.length)}`;
      if (!scopesOfRoute(route).some((s) => user.apiKey.scopes.includes(s))) throw new ApiError(403, 'apiKeys.outOfScope');
    }
    return user;
  };
}

/** Every kind of signed-in user (model/roles.ts `Kind`), the callers of a `signedIn` route. */
const ALL_KINDS: readonly Kind[] = ['admin', 'carrier', 'enduser', 'support'];

type Requirement = Record<string, string[]>;

/**
 * The OpenAPI security of a route, from its policy (plugins/session.ts onRoute; issue 33): every operation
 * says how it is called, so a generated client knows which calls need the bearer token and there is no
 * global default that would make the signed-in operations look anonymous.
 *
 * - `public`: the API password alone (`[{apiPassword: []}]`), or what the route declares itself (the quote
 *   adds an optional bearer token: a signed-in carrier quotes for a customer).
 * - signed in (`signedIn` or a list of kinds): the API password and the bearer token; the kinds that may
 *   call go in `x-roles` and in a sentence of the description.
 * - a route some API-key scope names (model/apiKeys.ts `scopesOfRoute`): one more requirement, the key with
 *   its scopes (`{apiPassword: [], apiKey: scopes}`), and `x-api-key-scopes`.
 * - the live stream (`config.liveTicket`): the one-time ticket in the query (`streamTicket`) and nothing else
 *   (EventSource sends no headers); the route's own `security` is replaced.
 */
export function securitySchemaOf(
  method: string,
  url: string,
  schema: Record<string, unknown> | undefined,
  config: { policy: Policy; liveTicket?: boolean },
): Record<string, unknown> {
  const { policy } = config;
  const roles = policy === 'public' ? [] : policy === 'signedIn' ? [...ALL_KINDS] : [...policy];
  const out: Record<string, unknown> = { ...schema };
  if (roles.length) {
    out['x-roles'] = roles;
    const sentence = `Signed-in roles that may call: ${roles.join(', ')}.`;
    out.description = typeof schema?.description === 'string' && schema.description ? `${schema.description}\n\n${sentence}` : sentence;
  }
  if (config.liveTicket) {
    out.security = [{ streamTicket: [] }];
    return out;
  }
  const own = schema?.security as Requirement[] | undefined;
  const security: Requirement[] = policy === 'public' ? (own?.length ? own : [{ apiPassword: [] }]) : [{ apiPassword: [], bearer: [] }];
  // HEAD is answered as GET (apiKeyAuth above): the same scopes.
  const scopes = scopesOfRoute(`${method === 'HEAD' ? 'GET' : method} ${url.slice(API_PREFIX.length)}`);
  if (scopes.length) {
    out['x-api-key-scopes'] = scopes;
    security.push({ apiPassword: [], apiKey: scopes });
  }
  out.security = security;
  return out;
}

/** Every route some scope names (the tests check each is registered). */
export const keyRoutes = () => [...new Set(API_KEY_SCOPES.flatMap((s) => API_KEY_ROUTES[s]))];
