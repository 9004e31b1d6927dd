import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { AccessRequestPage } from './AccessRequestPage';

const page: PortalPage = { path: '/access-request', element: <AccessRequestPage />, noLayout: true, messages: accountMessages };
export default page;
