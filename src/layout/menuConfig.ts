import type { Kind } from '../../model/roles';
import { RESOURCES } from '../../model/registry';
import type { ResourceDecl } from '../../model/resource';

/**
 * The sidebar of the accounts document (§2 "Sidebar entries by role"), as one tree. A leaf shows when
 * the caller's kind may list its screen (canAccess on the path's name) and the screen exists (is routed);
 * a group shows when one of its leaves does. Labels are translated from `text-{name}`.
 */
export interface MenuEntry {
  name: string;
  path?: string;
  /** Only for these kinds, beyond the permission check (where the document's table differs). */
  kinds?: Kind[];
  children?: MenuEntry[];
}

/** The fixed entries: custom pages and the groups; declared resources join their group (below). */
const BASE_MENU: MenuEntry[] = [
  { name: 'dashboard', path: '/' },
  { name: 'calculate-cost', path: '/calculate-cost' },
  { name: 'transport-requests-visuals', path: '/transport-requests-visuals' },
  {
    name: 'price-manager',
    children: [
      {
        // The document names this group header /accessories-exp-express-hub-costs; it is a header only.
        // Its sub-groups hold the six tariff tables (model/resources/tariffs.ts).
        name: 'accessories-exp-express-hub-costs',
        children: [
          { name: 'express', children: [] },
          { name: 'standard', children: [] },
        ],
      },
    ],
  },
  {
    name: 'settings-group',
    children: [{ name: 'portal-settings', path: '/portal-settings' }],
  },
  { name: 'support', path: '/support' },
  { name: 'settings', path: '/settings' },
];

/**
 * Places each declared resource with a menu place (model/resource.ts `menu`) in its group: after the
 * entry it names, else first in the group ('root': the top level). Pure: tests build it with fixtures.
 */
export function withDeclared(entries: MenuEntry[], decls: readonly ResourceDecl[]): MenuEntry[] {
  const tree: MenuEntry[] = structuredClone(entries);
  const findGroup = (list: MenuEntry[], name: string): MenuEntry | undefined => {
    for (const e of list) {
      if (e.name === name && e.children) return e;
      const inner = e.children && findGroup(e.children, name);
      if (inner) return inner;
    }
    return undefined;
  };
  for (const d of decls) {
    if (!d.menu) continue;
    const list = d.menu.group === 'root' ? tree : findGroup(tree, d.menu.group)?.children;
    if (!list) throw new Error(`Resource ${d.name}: no menu group ${d.menu.group}`);
    const after = d.menu.after;
    const afterIndex = after ? list.findIndex((e) => e.name === after) : -1;
    if (after && afterIndex < 0) throw new Error(`Resource ${d.name}: no menu entry ${after} in ${d.menu.group}`);
    list.splice(afterIndex + 1, 0, { name: d.name, path: `/${d.name}`, ...(d.menu.kinds ? { kinds: [...d.menu.kinds] } : {}) });
  }
  return tree;
}

export const MENU: MenuEntry[] = withDeclared(BASE_MENU, RESOURCES);

/** The entries a kind sees, given the routed paths: pure, so tests check it per role. */
export function visibleMenu(kind: Kind | null | undefined, routed: Set<string>, canAccess: (k: Kind, r: string) => boolean, entries = MENU): MenuEntry[] {
  if (!kind) return [];
  const out: MenuEntry[] = [];
  for (const e of entries) {
    if (e.children) {
      const children = visibleMenu(kind, routed, canAccess, e.children);
      if (children.length) out.push({ ...e, children });
    } else if (e.path && routed.has(e.path) && canAccess(kind, e.path === '/' ? 'dashboard' : e.path.slice(1)) && (!e.kinds || e.kinds.includes(kind))) {
      out.push(e);
    }
  }
  return out;
}

/** Flat list of the visible leaf paths (tests compare it with the document's table). */
export const leafPaths = (entries: MenuEntry[]): string[] => entries.flatMap((e) => (e.children ? leafPaths(e.children) : e.path ? [e.path] : []));
