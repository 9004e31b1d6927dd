import { apiRequest } from '../api/http';

/** The signed-in user's two-step verification (account settings; docs/two-factor.md). */
export interface MfaState {
  enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
  required: boolean;
}
export interface MfaEnrolment {
  secret: string;
  uri: string;
  /** The QR code, an SVG data URL. */
  qr: string;
}
/** What turning off or new recovery codes ask: a current code or the password. */
export type MfaProof = { code: string } | { password: string };
type Answer<T = unknown> = { message: string; data: T };

export const mfaMethods = () => ({
  mfaState: () => apiRequest<{ data: MfaState }>('/visitor/mfa').then((r) => r.data),
  mfaSetup: () => apiRequest<Answer<MfaEnrolment>>('/visitor/mfa/setup', { method: 'POST', body: {} }),
  mfaEnable: (code: string) => apiRequest<Answer<{ recovery_codes: string[] }>>('/visitor/mfa/enable', { method: 'POST', body: { code } }),
  mfaDisable: (proof: MfaProof) => apiRequest<Answer>('/visitor/mfa/disable', { method: 'POST', body: proof }),
  /** Admins: whether a user has it on, and its reset (lost phone and recovery codes). */
  adminMfaState: (userId: number) => apiRequest<{ data: { enabled: boolean } }>(`/admin/users/mfa/${userId}`).then((r) => r.data),
  adminMfaReset: (userId: number) => apiRequest<Answer>(`/admin/users/mfaReset/${userId}`, { method: 'POST', body: {} }),
  mfaRecoveryCodes: (proof: MfaProof) => apiRequest<Answer<{ recovery_codes: string[] }>>('/visitor/mfa/recovery_codes', { method: 'POST', body: proof }),
});
