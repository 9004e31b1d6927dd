import { userRoutes } from '../shared/users.js';

/** /admin/users: list, show, store, update, destroy, changeStatus (see ../shared/users.ts). */
export default userRoutes('admin');
