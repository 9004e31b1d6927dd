import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { API_KEY_NAMESPACES, API_KEY_SCOPES, API_KEY_SCOPES_OF, type ApiKeyScope } from '../../../model/apiKeys.js';
import { int, intN, list, obj, str, strN, writeAnswer } from '../../lib/answers.js';
import { forbidden, invalid, notFound } from '../../lib/errors.js';
import { registerMessages } from '../../i18n/index.js';
import { apiKeysRepo } from '../../repositories/apiKeys.js';

registerMessages({
  en: {
    'apiKeys.created': 'API key created: copy it now, it will not be shown again.',
    'apiKeys.revoked': 'API key {name} revoked.',
    'apiKeys.scopeNotAllowed': 'Your role cannot give a key the scope {scope}.',
    'field.api-keys.name': 'name',
    'field.api-keys.scopes': 'scopes',
  },
  it: {
    'apiKeys.created': 'Chiave API creata: copiala ora, non verrà più mostrata.',
    'apiKeys.revoked': 'Chiave API {name} revocata.',
    'apiKeys.scopeNotAllowed': 'Il tuo ruolo non può dare a una chiave l’ambito {scope}.',
    'field.api-keys.name': 'nome',
    'field.api-keys.scopes': 'ambiti',
  },
  fr: {
    'apiKeys.created': 'Clé API créée : copiez-la maintenant, elle ne sera plus affichée.',
    'apiKeys.revoked': 'Clé API {name} révoquée.',
    'apiKeys.scopeNotAllowed': 'Votre rôle ne peut pas donner à une clé la portée {scope}.',
    'field.api-keys.name': 'nom',
    'field.api-keys.scopes': 'portées',
  },
});

const scopeList = { type: 'array', items: { type: 'string', enum: [...API_KEY_SCOPES] } } as const;
// scopes from model/apiKeys.ts (a key only ever stores scopes the body's enum admitted)
const keyRow = obj({
  id: int,
  name: str,
  prefix: str,
  scopes: scopeList,
  created_by: intN,
  created_by_name: str,
  created_at: str,
  last_used_at: strN,
  revoked_at: strN,
});
const storeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'scopes'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the key is for (e.g. "ERP")' },
    scopes: { ...scopeList, minItems: 1, uniqueItems: true, description: 'quotes, requests:read, requests:write (model/apiKeys.ts)' },
  },
} as const;
const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * A company's API keys (issue 23, docs/integrations.md), for the carrier kind (`/company/api_keys`) and
 * end users (`/enduser/api_keys`): list, create (the key is answered once), revoke (at once). Never
 * callable with a key (no scope names them). A key gets only the scopes the creating user's kind may give.
 */
export default async function apiKeyRoutes(app: App) {
  const keys = apiKeysRepo(app.db);

  for (const [ns, kind] of Object.entries(API_KEY_NAMESPACES)) {
    const tags = [ns];
    const policyOf = (action: 'list' | 'create' | 'delete') => kindsFor('api-keys', action).filter((k) => k === kind);
    const config = (action: 'list' | 'create' | 'delete') => ({ policy: policyOf(action), resource: 'api-keys' });
    const grantable = (k: string) => API_KEY_SCOPES_OF[k as keyof typeof API_KEY_SCOPES_OF] ?? [];

    app.get(
      `/${ns}/api_keys`,
      {
        config: config('list'),
        schema: {
          tags,
          summary: "The caller's company API keys (never the keys themselves), active first, and the scopes the caller may give.",
          response: { 200: obj({ status: { type: 'boolean' }, data: list(keyRow), scopes: scopeList }) },
        },
      },
      async (req) => {
        const me = req.user!;
        return { status: true, data: await keys.listOf(me.company_id), scopes: [...grantable(me.kind)] };
      },
    );

    app.post(
      `/${ns}/api_keys/store`,
      {
        config: config('create'),
        schema: {
          tags,
          summary: 'Creates an API key of the caller’s company; `data.key` is answered this once (only its hash is kept).',
          body: storeBody,
          response: { 200: writeAnswer(obj({ id: int, key: str, prefix: str, name: str, scopes: scopeList })) },
        },
      },
      async (req) => {
        const me = req.user!;
        if (me.apiKey) throw forbidden(); // never reached: no scope names this route
        const scopes = req.body.scopes as ApiKeyScope[];
        const refused = scopes.find((s) => !grantable(me.kind).includes(s));
        if (refused) throw invalid({ scopes: { key: 'apiKeys.scopeNotAllowed', params: { scope: refused } } });
        const name = req.body.name.trim();
        const created = await keys.create({ companyId: me.company_id, name, scopes, userId: me.id, userName: `${me.first_name} ${me.last_name}` });
        req.audit({
          action: 'create',
          resource: 'api_keys',
          resource_id: created.id,
          company_id: me.company_id,
          changes: { name: { before: null, after: name }, prefix: { before: null, after: created.prefix }, scopes: { before: null, after: scopes.join(', ') } },
        });
        return { status: true, message: req.t('apiKeys.created'), data: { id: created.id, key: created.key, prefix: created.prefix, name, scopes } };
      },
    );

    app.get(
      `/${ns}/api_keys/destroy/:id`,
      {
        config: config('delete'),
        schema: {
          tags,
          summary: 'Revokes an API key of the caller’s company: from the next call on it answers 401 saying it was revoked.',
          params: idParams,
          response: { 200: writeAnswer(obj({ id: int })) },
        },
      },
      async (req) => {
        const me = req.user!;
        // another company's key, an unknown or already revoked one: 404 alike
        const revoked = await keys.revoke(me.company_id, req.params.id);
        if (!revoked) throw notFound();
        req.audit({
          action: 'delete',
          resource: 'api_keys',
          resource_id: req.params.id,
          company_id: me.company_id,
          changes: { name: { before: revoked.name, after: null }, prefix: { before: revoked.prefix, after: null } },
        });
        return { status: true, message: req.t('apiKeys.revoked', { name: revoked.name }), data: { id: req.params.id } };
      },
    );
  }
}
