import type { PortalPage } from './resources/types';
import { LoginPage } from './custom/login/LoginPage';
import { mfaMessages } from './custom/accounts/mfaMessages';
import forgetPassword from './custom/forgetPassword';
import resetPassword from './custom/resetPassword';
import resetPasswordOtp from './custom/resetPasswordOtp';
import accessRequest from './custom/accessRequest';
import tracking from './custom/tracking';
// The quote page is where visitors arrive, often from a phone: it comes with the shell, not one round trip
// later (quote LCP 3.02 → 2.42 s for 16 kB more on the login's first load, issue 18).
import QuotePage from './custom/calculator/QuotePage';
import { calculatorMessages } from './custom/calculator/messages';
import { visitorRequestPage } from './custom/transportRequests/visitorPage';
import { requestMessages } from './custom/transportRequests/messages';

/**
 * The visitor's pages (authProvider/guard.ts PUBLIC_ROUTES): what the public shell (PublicApp.tsx)
 * routes. They never need the signed-in shell, so it is not loaded for them.
 */
export const publicPages: PortalPage[] = [
  { path: '/login', element: <LoginPage />, noLayout: true, messages: mfaMessages },
  forgetPassword,
  resetPassword,
  resetPasswordOtp,
  accessRequest,
  { path: '/quote', element: <QuotePage />, noLayout: true, messages: calculatorMessages },
  { ...visitorRequestPage, messages: requestMessages },
  tracking,
];
