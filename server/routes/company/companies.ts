import { companyRoutes } from '../shared/companies.js';

/** /company/companies: list, show, store, update, destroy, changeStatus (see ../shared/companies.ts). */
export default companyRoutes('company');
