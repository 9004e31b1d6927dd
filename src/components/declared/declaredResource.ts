import { createElement } from 'react';
import { browserMessages, type ResourceDecl } from '../../../model/resource';
import { lazyScreen } from '../lazyScreen';

// The table, its inputs and dialogs load when a declared screen is first opened.
const DeclaredList = lazyScreen(() => import('./DeclaredList'), 'DeclaredList');

/**
 * A react-admin resource from its declaration (model/resources/*): the paged table with add and edit in
 * modals (offered to the kinds the declaration lets create and edit), its paths per role, its labels.
 */
/** (Returns the shape of a PortalResource; components/ does not import resources/, the folder above it.) */
export function declaredResource(decl: ResourceDecl) {
  const sort = { field: decl.list?.sort ?? 'name', order: decl.list?.order ?? 'ASC' } as const;
  const list = () => createElement(DeclaredList, { resource: decl.name, fields: decl.fields, sort, searchable: !!decl.list?.search?.length });
  return {
    name: decl.name,
    list,
    api: { paths: decl.api },
    messages: browserMessages(decl),
    recordRepresentation: 'name' in decl.fields ? 'name' : Object.keys(decl.fields)[0],
  };
}
