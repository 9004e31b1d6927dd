import { apiRequest } from '../api/http';
import type { Kind } from '../../model/roles';
import type { ApiKeyScope } from '../../model/apiKeys';

/** A company API key as the list shows it (server/routes/shared/apiKeys.ts): never the key itself. */
export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

type Answer<T> = { message: string; data: T };

/** The carrier kind manages its keys under /company, end users under /enduser. */
const ns = (kind: Kind) => (kind === 'enduser' ? 'enduser' : 'company');

/** API keys of the caller's company (issue 23, docs/integrations.md): the settings' "Chiavi API" card. */
export const apiKeyMethods = (getKind: () => Kind) => ({
  apiKeys: () => apiRequest<{ data: ApiKey[]; scopes: ApiKeyScope[] }>(`/${ns(getKind())}/api_keys`),
  createApiKey: (body: { name: string; scopes: ApiKeyScope[] }) =>
    apiRequest<Answer<{ id: number; key: string; prefix: string; name: string; scopes: ApiKeyScope[] }>>(`/${ns(getKind())}/api_keys/store`, { body }),
  revokeApiKey: (id: number) => apiRequest<Answer<{ id: number }>>(`/${ns(getKind())}/api_keys/destroy/${id}`),
});
