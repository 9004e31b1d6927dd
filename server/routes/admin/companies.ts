import { companyRoutes } from '../shared/companies.js';

/** /admin/companies: list, show, store, update, destroy, changeStatus (see ../shared/companies.ts). */
export default companyRoutes('admin');
