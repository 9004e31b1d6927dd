import { Route } from 'react-router-dom';
import PeopleIcon from '@mui/icons-material/People';
import type { PortalPage, PortalResource } from '../types';
import { lazyScreen } from '../../components/lazyScreen';
import { userMessages } from './messages';

// The screens load when first opened (src/components/lazyScreen.tsx).
const UserList = lazyScreen(() => import('./UserList'), 'UserList');
const UserCreate = lazyScreen(() => import('./UserCreate'), 'UserCreate');
const UserShow = lazyScreen(() => import('./UserShow'), 'UserShow');

/** /user-management and /user-management/{id}; editing happens in a modal on the list; creating at /create-user. */
const userManagement: PortalResource = {
  name: 'user-management',
  list: UserList,
  hasCreate: true,
  hasShow: true,
  icon: PeopleIcon,
  recordRepresentation: (r) => `${r.first_name} ${r.last_name}`,
  children: [<Route key="show" path=":id" element={<UserShow />} />],
  api: { paths: { admin: '/admin/users', carrier: '/company/users' } },
  messages: userMessages,
};

/** /create-user, a page of its own as the document routes it. */
export const createUserPage: PortalPage = { path: '/create-user', element: <UserCreate /> };

export default userManagement;
