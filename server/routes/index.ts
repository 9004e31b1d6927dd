import type { RouteModule } from '../lib/typed.js';
import authRoutes from './visitor/auth.js';
import lookupRoutes from './visitor/lookups.js';
import passwordRoutes from './visitor/password.js';
import invitationRoutes from './visitor/invitation.js';
import profileRoutes from './visitor/profile.js';
import accessRequestRoutes from './visitor/accessRequest.js';
import requestAccessRoutes from './company/requestAccess.js';
import enduserChatRoutes from './enduser/chats.js';
import companyChatRoutes from './company/chats.js';
import tariffTableRoutes from './tariffs/tables.js';
import rateSheetRoutes from './tariffs/rateSheets.js';
import categoryRoutes from './tariffs/categories.js';
import enduserRateSheetRoutes from './tariffs/enduser.js';
import tariffExportRoutes from './tariffs/export.js';
import adminCompanies from './admin/companies.js';
import companyCompanies from './company/companies.js';
import adminUsers from './admin/users.js';
import companyUsers from './company/users.js';
import costRequestRoutes from './visitor/costRequest.js';
import pingRoutes from './visitor/ping.js';
import settingsRoutes from './visitor/settings.js';
import adminSettingsRoutes from './admin/settings.js';
import requestCreateRoutes from './requests/create.js';
import requestListRoutes from './requests/list.js';
import requestExportRoutes from './requests/export.js';
import requestStatusRoutes from './requests/status.js';
import requestEditRoutes from './requests/edit.js';
import statisticsRoutes from './requests/statistics.js';
import sessionRoutes from './visitor/sessions.js';
import mfaRoutes from './visitor/mfa.js';
import mfaLoginRoutes from './visitor/mfaLogin.js';
import adminMfaRoutes from './admin/mfaReset.js';
import auditLogRoutes from './shared/auditLog.js';
import requestWaybillRoutes from './requests/waybill.js';
import requestPodRoutes from './requests/pod.js';
import requestLabelRoutes from './requests/labels.js';
import labelSettingsRoutes from './shared/labelSettings.js';
import requestQuoteRoutes from './requests/quote.js';
import quotePdfRoutes from './visitor/quotePdf.js';
import apiKeyRoutes from './shared/apiKeys.js';
import trackRoutes from './visitor/track.js';
import listExportRoutes from './shared/listExports.js';
import webhookRoutes from './shared/webhooks.js';
import liveEventRoutes from './shared/events.js';
import notificationRoutes from './shared/notifications.js';
import notificationSettingsRoutes from './company/notificationSettings.js';
import calendarFeedRoutes from './shared/calendarFeed.js';

/** Every route module, registered under /api/v1 in this order. */
export const routes: RouteModule[] = [
  authRoutes,
  lookupRoutes,
  passwordRoutes,
  invitationRoutes,
  profileRoutes,
  accessRequestRoutes,
  requestAccessRoutes,
  enduserChatRoutes,
  companyChatRoutes,
  tariffTableRoutes,
  rateSheetRoutes,
  categoryRoutes,
  enduserRateSheetRoutes,
  tariffExportRoutes,
  adminCompanies,
  companyCompanies,
  adminUsers,
  companyUsers,
  costRequestRoutes,
  pingRoutes,
  settingsRoutes,
  adminSettingsRoutes,
  requestCreateRoutes,
  requestListRoutes,
  requestExportRoutes,
  requestStatusRoutes,
  requestEditRoutes,
  statisticsRoutes,
  sessionRoutes,
  mfaRoutes,
  mfaLoginRoutes,
  adminMfaRoutes,
  auditLogRoutes,
  requestWaybillRoutes,
  requestPodRoutes,
  requestLabelRoutes,
  labelSettingsRoutes,
  requestQuoteRoutes,
  quotePdfRoutes,
  apiKeyRoutes,
  trackRoutes,
  listExportRoutes,
  webhookRoutes,
  liveEventRoutes,
  notificationRoutes,
  notificationSettingsRoutes,
  calendarFeedRoutes,
];
