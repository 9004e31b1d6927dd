import { apiRequest } from '../api/http';

/**
 * The account calls outside the auth provider (accounts document; sign-in, sign-out and the profile stay in
 * authProvider/): the public forget/reset password and access request pages, the signed-in user's profile
 * and password, and the admins' portal settings (server.md §9). Each answers `{message, ...}`; the screens
 * show the message themselves (the provider announces only store/update/destroy/changeStatus answers).
 */
type Answer<T = unknown> = { message: string; data: T };

export const accountMethods = () => ({
  forgetPassword: (email: string) => apiRequest<Answer>('/visitor/forgetPassword', { method: 'POST', body: { email } }),
  resetPassword: (body: { otp: string; email: string; password: string; password_confirmation: string }) =>
    apiRequest<Answer>('/visitor/resetPassword', { method: 'POST', body }),
  /** An invitation link (issue 35): whose account it opens, then its password, once. */
  checkInvitation: (token: string) =>
    apiRequest<{ data: { email: string; first_name: string; expires_at: string } }>('/visitor/checkInvitation', { method: 'POST', body: { token } }).then(
      (r) => r.data,
    ),
  acceptInvitation: (body: { token: string; password: string; password_confirmation: string }) =>
    apiRequest<Answer>('/visitor/acceptInvitation', { method: 'POST', body }),
  requestAccess: (body: Record<string, unknown>) => apiRequest<Answer>('/visitor/request_access/store', { method: 'POST', body }),
  /** JSON, or multipart when a new picture travels. */
  updateProfile: (body: FormData | Record<string, unknown>) => apiRequest<Answer>('/visitor/updateProfile', { method: 'POST', body }),
  changePassword: (body: { oldPassword: string; password: string; password_confirmation: string }) =>
    apiRequest<Answer>('/visitor/changePassword', { method: 'POST', body }),
  portalSettings: <T>() => apiRequest<{ data: T }>('/admin/settings').then((r) => r.data),
  /** Multipart: the visitors' carrier, template files, `remove_templates[]`. */
  updatePortalSettings: <T>(form: FormData) => apiRequest<Answer<T>>('/admin/settings/update', { method: 'POST', body: form }),
});
