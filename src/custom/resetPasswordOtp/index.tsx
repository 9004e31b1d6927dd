import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { ResetPasswordOtpPage } from './ResetPasswordOtpPage';

const page: PortalPage = { path: '/reset-password-otp', element: <ResetPasswordOtpPage />, noLayout: true, messages: accountMessages };
export default page;
