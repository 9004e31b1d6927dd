import type { PortalPage } from './resources/types';
import { lazyScreen } from './components/lazyScreen';
import { LoginPage } from './custom/login/LoginPage';
// The quote page's frame comes with the shell (its title and introduction are what a phone paints first,
// the LCP); its calculator loads on demand (QuotePage.tsx).
import QuotePage from './custom/calculator/QuotePage';
import { withMessages } from './publicI18n';

// Each page's code and texts arrive when it is first shown (issue 18: the login's first load is the login
// and the quote page's frame). The messages modules are imported here, lazily, beside the page that needs them.
const accounts = () => import('./custom/accounts/messages').then((m) => m.accountMessages);
const calculator = () => import('./custom/calculator/messages').then((m) => m.calculatorMessages);
const requests = () => import('./custom/transportRequests/messages').then((m) => m.requestMessages);

const ForgetPasswordPage = lazyScreen(() => withMessages(import('./custom/forgetPassword/ForgetPasswordPage'), accounts()), 'ForgetPasswordPage', {
  fullPage: 'public',
});
const ResetPasswordPage = lazyScreen(() => withMessages(import('./custom/resetPassword/ResetPasswordPage'), accounts()), 'ResetPasswordPage', {
  fullPage: 'public',
});
const ResetPasswordOtpPage = lazyScreen(() => withMessages(import('./custom/resetPasswordOtp/ResetPasswordOtpPage'), accounts()), 'ResetPasswordOtpPage', {
  fullPage: 'public',
});
// The invitation link's page (issue 35): a new user chooses the password.
const SetPasswordPage = lazyScreen(() => withMessages(import('./custom/setPassword/SetPasswordPage'), accounts()), 'SetPasswordPage', {
  fullPage: 'public',
});
const AccessRequestPage = lazyScreen(() => withMessages(import('./custom/accessRequest/AccessRequestPage'), accounts()), 'AccessRequestPage', {
  fullPage: 'public',
});
// A visitor's request from a quote (its summary uses the calculator's texts too).
const VisitorRequestPage = lazyScreen(
  () => withMessages(import('./custom/transportRequests/VisitorRequestPage'), requests(), calculator()),
  'VisitorRequestPage',
  { fullPage: 'plain' },
);

// Public tracking (docs/tracking.md): the page brings its own texts (custom/tracking/messages.ts) with its code.
const TrackingPage = lazyScreen(() => import('./custom/tracking/TrackingPage'), 'TrackingPage', { fullPage: 'public' });

/**
 * The visitor's pages (authProvider/guard.ts PUBLIC_ROUTES): what the public shell (PublicApp.tsx)
 * routes. They never need the signed-in shell, so it is not loaded for them.
 */
export const publicPages: PortalPage[] = [
  { path: '/login', element: <LoginPage />, noLayout: true },
  { path: '/forget-password', element: <ForgetPasswordPage />, noLayout: true },
  { path: '/reset-password', element: <ResetPasswordPage />, noLayout: true },
  { path: '/reset-password-otp', element: <ResetPasswordOtpPage />, noLayout: true },
  { path: '/set-password', element: <SetPasswordPage />, noLayout: true },
  { path: '/access-request', element: <AccessRequestPage />, noLayout: true },
  { path: '/quote', element: <QuotePage />, noLayout: true },
  { path: '/quote/request', element: <VisitorRequestPage />, noLayout: true },
  { path: '/track', element: <TrackingPage />, noLayout: true },
];

/**
 * The pages whose first screen is prerendered into index.html at build (issue 37, build/prerender.ts; the
 * snapshot is chosen by the address before any script runs). Each one's module is in place before React's
 * first render when its snapshot is on show (`preloadPrerendered`), so that render — which replaces the
 * snapshot — is the page itself, not a progress.
 */
export const PRERENDERED: Record<string, () => Promise<void>> = {
  '/login': () => Promise.resolve(), // in the entry
  '/quote': () => Promise.resolve(), // its frame is in the entry; the calculator follows the first paint
  '/track': TrackingPage.preload,
  '/access-request': AccessRequestPage.preload,
};
