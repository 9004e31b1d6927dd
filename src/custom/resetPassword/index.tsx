import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { ResetPasswordPage } from './ResetPasswordPage';

const page: PortalPage = { path: '/reset-password', element: <ResetPasswordPage />, noLayout: true, messages: accountMessages };
export default page;
