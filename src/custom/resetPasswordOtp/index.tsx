import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { lazyScreen } from '../../components/lazyScreen';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx).
const ResetPasswordOtpPage = lazyScreen(() => import('./ResetPasswordOtpPage'), 'ResetPasswordOtpPage', { fullPage: 'public' });

const page: PortalPage = { path: '/reset-password-otp', element: <ResetPasswordOtpPage />, noLayout: true, messages: accountMessages };
export default page;
