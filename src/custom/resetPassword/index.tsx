import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { lazyScreen } from '../../components/lazyScreen';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx).
const ResetPasswordPage = lazyScreen(() => import('./ResetPasswordPage'), 'ResetPasswordPage', { fullPage: 'public' });

const page: PortalPage = { path: '/reset-password', element: <ResetPasswordPage />, noLayout: true, messages: accountMessages };
export default page;
