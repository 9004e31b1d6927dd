import { createElement } from 'react';
import { browserMessages, type ResourceDecl } from '../../../model/resource';
import { lazyScreen } from '../lazyScreen';

// The table, its inputs and dialogs load when a declared screen is first opened; the show page likewise.
const DeclaredList = lazyScreen(() => import('./DeclaredList'), 'DeclaredList');
const DeclaredShow = lazyScreen(() => import('./DeclaredShow'), 'DeclaredShow');

/**
 * A react-admin resource from its declaration (model/resources/*): the paged table with add and edit in
 * modals (offered to the kinds the declaration lets create and edit), filters, bulk actions and import
 * (issue 34), the show page `#/<name>/<id>/show`, its paths per role, its labels.
 */
/** (Returns the shape of a PortalResource; components/ does not import resources/, the folder above it.) */
export function declaredResource(decl: ResourceDecl) {
  const list = () => createElement(DeclaredList, { decl });
  // Every generated resource has a show page (issue 34); a custom one's folder brings its own screens.
  const show = decl.routes === 'generated' ? () => createElement(DeclaredShow, { decl }) : undefined;
  return {
    name: decl.name,
    list,
    show,
    api: { paths: decl.api },
    messages: browserMessages(decl),
    recordRepresentation: 'name' in decl.fields ? 'name' : Object.keys(decl.fields)[0],
  };
}
