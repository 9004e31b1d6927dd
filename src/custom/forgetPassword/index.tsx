import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { ForgetPasswordPage } from './ForgetPasswordPage';

const page: PortalPage = { path: '/forget-password', element: <ForgetPasswordPage />, noLayout: true, messages: accountMessages };
export default page;
