import type { Kind } from './roles';
import type { Action } from './resource';
import { RESOURCES } from './registry';

export type { Action };

/**
 * Who may do what, in one table used by the menu, the browser routes (react-admin's canAccess), the
 * server's route policies and the tests. Keys are the screens' route names; absent means none.
 */
const ALL: Action[] = ['list', 'show', 'create', 'edit', 'delete'];
const READ: Action[] = ['list', 'show'];

type Entry = Partial<Record<Kind, readonly Action[]>>;

/** The screens that are not declared resources (custom pages, and resources not yet declared). */
const PAGES: Record<string, Entry> = {
  dashboard: { admin: READ, carrier: READ, enduser: READ, support: READ },
  settings: { admin: [...READ, 'edit'], carrier: [...READ, 'edit'], enduser: [...READ, 'edit'], support: [...READ, 'edit'] },
  'portal-settings': { admin: [...READ, 'edit'] },
  'calculate-cost': { admin: READ, carrier: READ, enduser: READ },
  'transport-requests': { admin: ['list', 'show', 'edit'], carrier: ['list', 'show', 'edit'], enduser: ['list', 'show', 'create'] },
  support: { carrier: ALL, enduser: ['list', 'show', 'create'], support: ALL },
  // a company's API keys (model/apiKeys.ts), managed by its own users
  'api-keys': { carrier: ['list', 'create', 'delete'], enduser: ['list', 'create', 'delete'] },
  // a company's webhook endpoints (model/webhooks.ts): the same users as its API keys; `edit` = resend a delivery
  webhooks: { carrier: ['list', 'create', 'edit', 'delete'], enduser: ['list', 'create', 'edit', 'delete'] },
  // the in-app bell (model/notifications.ts): each user's own, for the kinds that see requests
  notifications: { admin: ['list', 'edit'], carrier: ['list', 'edit'], enduser: ['list', 'edit'] },
  // a carrier's switches for its consignees' status mails (docs/notifications.md)
  'notification-settings': { carrier: ['show', 'edit'] },
  // a company's private calendar feed (docs/calendar-feed.md): every user of the company sees whether it is on;
  // `edit` (turn on, new address, turn off) is further kept to the company's main account by the routes (MANAGER_ROLES)
  'calendar-feed': { carrier: ['show', 'edit'], enduser: ['show', 'edit'] },
  // a carrier's GS1 company prefix for its pallet labels (docs/pallet-labels.md); only its main account edits (the route checks the role)
  'label-settings': { admin: ['show', 'edit'], carrier: ['show', 'edit'] },
};

/** Every screen's permissions: the pages above and each declared resource's own (model/registry.ts). */
export const PERMISSIONS: Record<string, Entry> = {
  ...PAGES,
  ...Object.fromEntries(RESOURCES.map((r) => [r.name, r.permissions])),
};

/** Screens that share another's permissions. */
export const ALIASES: Record<string, string> = {
  'transport-requests-visuals': 'transport-requests',
  transport_requests: 'transport-requests',
};

export function canAccess(kind: Kind | null | undefined, resource: string, action: Action = 'list'): boolean {
  if (!kind) return false;
  return PERMISSIONS[ALIASES[resource] ?? resource]?.[kind]?.includes(action) ?? false;
}

/** The kinds that may perform an action: what a server route declares as its policy. */
export function kindsFor(resource: string, action: Action): Kind[] {
  const entry = PERMISSIONS[ALIASES[resource] ?? resource] ?? {};
  return (Object.keys(entry) as Kind[]).filter((k) => entry[k]?.includes(action));
}
