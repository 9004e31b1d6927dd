import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { lazyScreen } from '../../components/lazyScreen';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx).
const ForgetPasswordPage = lazyScreen(() => import('./ForgetPasswordPage'), 'ForgetPasswordPage', { fullPage: 'public' });

const page: PortalPage = { path: '/forget-password', element: <ForgetPasswordPage />, noLayout: true, messages: accountMessages };
export default page;
