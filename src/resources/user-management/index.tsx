import { Navigate, Route } from 'react-router-dom';
import PeopleIcon from '@mui/icons-material/People';
import type { PortalPage, ResourceScreens } from '../types';
import { lazyScreen } from '../../components/lazyScreen';
import { userMessages } from './messages';
import { userSessionMessages } from './sessionMessages';
import { mergeMessages } from '../../i18n/merge';

// The screens load when first opened (src/components/lazyScreen.tsx).
const UserList = lazyScreen(() => import('./UserList'), 'UserList');
const UserCreate = lazyScreen(() => import('./UserCreate'), 'UserCreate');
const UserShow = lazyScreen(() => import('./UserShow'), 'UserShow');

/**
 * /user-management, its create (/user-management/create, the three-step form) and /user-management/{id};
 * editing happens in a modal on the list.
 */
const userManagement: ResourceScreens = {
  list: UserList,
  create: UserCreate,
  hasShow: true,
  icon: PeopleIcon,
  recordRepresentation: (r) => `${r.first_name} ${r.last_name}`,
  children: [<Route key="show" path=":id" element={<UserShow />} />],
  messages: mergeMessages(userMessages, userSessionMessages),
};

/** /create-user, the documents' route of the create screen: the resource's own create. */
export const createUserPage: PortalPage = { path: '/create-user', element: <Navigate to="/user-management/create" replace /> };

export default userManagement;
