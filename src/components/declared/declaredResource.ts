import { createElement, type ComponentType } from 'react';
import type { FieldsDecl } from '../../../model/fields';
import type { AreaMessages } from '../../i18n';
import type { ResourceApi } from '../../dataProvider';
import { lazyScreen } from '../lazyScreen';

// The table, its inputs and dialogs load when a declared screen is first opened.
const DeclaredList = lazyScreen(() => import('./DeclaredList'), 'DeclaredList');

/**
 * A resource screen from a field declaration: the paged table with add and edit in modals. A resource
 * folder's index.ts is then one call, and App.tsx one line.
 */
export function declaredResource(o: {
  name: string;
  fields: FieldsDecl;
  api: ResourceApi;
  messages: AreaMessages;
  sort?: { field: string; order: 'ASC' | 'DESC' };
  icon?: ComponentType;
  recordRepresentation?: string | ((record: any) => string);
}) {
  const list = () => createElement(DeclaredList, { resource: o.name, fields: o.fields, sort: o.sort });
  return { name: o.name, list, api: o.api, messages: o.messages, icon: o.icon, recordRepresentation: o.recordRepresentation ?? 'name' };
}
