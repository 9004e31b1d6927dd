import type { ComponentType, ReactElement, ReactNode } from 'react';
import type { AreaMessages } from '../i18n';
import type { ResourceApi } from '../dataProvider';

/**
 * A resource folder's `index.ts` default export: spread into <Resource> (name, list, create, edit,
 * show, icon, recordRepresentation), plus where it lives on the server and its messages.
 */
export interface PortalResource {
  name: string;
  list?: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
  show?: ComponentType;
  icon?: ComponentType;
  recordRepresentation?: string | ((record: any) => string);
  /** Screens at other paths under the resource (`<Route path="new">`, `<Route path=":id">`), rendered inside it. */
  children?: ReactNode;
  /** The resource has a create or show screen among its `children` (react-admin's registry). */
  hasCreate?: boolean;
  hasShow?: boolean;
  api: ResourceApi;
  messages?: AreaMessages;
}

/** A resource folder's default export: the screens a declaration cannot say, and its extra texts (name, paths, labels come from the declaration). */
export type ResourceScreens = Omit<PortalResource, 'name' | 'api'> & {
  /** What the paths need beyond the declaration's (the key of a keyed list answer, fixed filters). */
  api?: Omit<ResourceApi, 'paths'> & { paths?: ResourceApi['paths'] };
};

/** A custom page (calculator, wizard, chat, account...): a route with or without the shell. */
export interface PortalPage {
  path: string;
  element: ReactElement;
  /** Outside the shell (sign-in screens, public pages). */
  noLayout?: boolean;
  messages?: AreaMessages;
  /** A hook answering the count the sidebar entry of this path shows as a badge (0: none), e.g. unread messages. */
  menuBadge?: () => number;
}
