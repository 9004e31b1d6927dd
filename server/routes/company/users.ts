import { userRoutes } from '../shared/users.js';

/** /company/users: list, show, store, update, destroy, changeStatus (see ../shared/users.ts). */
export default userRoutes('company');
