import type { PortalPage } from './resources/types';
import { LoginPage } from './custom/login/LoginPage';
import forgetPassword from './custom/forgetPassword';
import resetPassword from './custom/resetPassword';
import resetPasswordOtp from './custom/resetPasswordOtp';
import accessRequest from './custom/accessRequest';
import { quotePage } from './custom/calculator';
import { calculatorMessages } from './custom/calculator/messages';
import { visitorRequestPage } from './custom/transportRequests/visitorPage';
import { requestMessages } from './custom/transportRequests/messages';

/**
 * The visitor's pages (authProvider/guard.ts PUBLIC_ROUTES): what the public shell (PublicApp.tsx)
 * routes. They never need the signed-in shell, so it is not loaded for them.
 */
export const publicPages: PortalPage[] = [
  { path: '/login', element: <LoginPage />, noLayout: true },
  forgetPassword,
  resetPassword,
  resetPasswordOtp,
  accessRequest,
  { ...quotePage, messages: calculatorMessages },
  { ...visitorRequestPage, messages: requestMessages },
];
