import { RESOURCES } from '../../model/registry';
import { declaredResource } from '../components/declared/declaredResource';
import type { PortalResource } from './types';
import requestAccess from './request-access';
import companies from './companies';
import userManagement from './user-management';
import { tariffResources } from './tariffs';

/**
 * Every react-admin resource. A declared resource (model/registry.ts) becomes its screens from its
 * declaration alone; a folder here is needed only for what a declaration cannot say (the companies'
 * three-step create, uploads…), and is listed in `custom` under the resource's name.
 */
const custom: Record<string, PortalResource> = { ...tariffResources };

export const resources: PortalResource[] = [
  ...RESOURCES.map((decl) => custom[decl.name] ?? declaredResource(decl)),
  requestAccess,
  companies,
  userManagement,
];
