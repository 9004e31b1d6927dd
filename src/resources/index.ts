import { RESOURCES } from '../../model/registry';
import { browserMessages } from '../../model/resource';
import { declaredResource } from '../components/declared/declaredResource';
import { mergeMessages } from '../i18n/merge';
import type { PortalResource, ResourceScreens } from './types';
import requestAccess from './request-access';
import companies from './companies';
import userManagement from './user-management';
import { tariffResources } from './tariffs';
import auditLog from './audit-log';

/**
 * Every react-admin resource comes from its declaration (model/registry.ts): name, paths per role,
 * labels, permissions and menu place. A declared resource needs no file here; a folder is needed only
 * for screens a declaration cannot say (the companies' three-step create, the access-request review…),
 * listed in `screens` under the resource's name. The folder's messages add to the declaration's.
 */
const screens: Record<string, ResourceScreens> = {
  ...tariffResources,
  companies,
  'user-management': userManagement,
  'request-access': requestAccess,
  'audit-log': auditLog,
};

export const resources: PortalResource[] = RESOURCES.map((decl) => {
  const custom = screens[decl.name];
  if (!custom) return declaredResource(decl);
  const { messages, api, ...views } = custom;
  return {
    ...views,
    name: decl.name,
    api: { ...api, paths: decl.api },
    messages: messages ? mergeMessages(browserMessages(decl), messages) : browserMessages(decl),
  };
});
