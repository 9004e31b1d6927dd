import { apiRequest } from '../api/http';

/** One active session of the signed-in user (server/routes/visitor/sessions.ts). */
export interface ActiveSession {
  id: number;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  /** e.g. "Chrome 156 · Linux"; null when the browser is unknown. */
  browser: string | null;
  ip: string | null;
  /** The session of this browser. */
  current: boolean;
}

type Answer<T> = { message: string; data: T };

/** Active sessions (server.md §3 "Sessions"): the user's own list and ends, and the admins' end-all of a user. */
export const sessionMethods = () => ({
  activeSessions: () => apiRequest<{ data: ActiveSession[] }>('/visitor/sessions').then((r) => r.data),
  endSession: (id: number) => apiRequest<Answer<{ id: number; current: boolean }>>(`/visitor/sessions/destroy/${id}`),
  endOtherSessions: () => apiRequest<Answer<{ count: number }>>('/visitor/sessions/destroyOthers'),
  endUserSessions: (userId: number | string) => apiRequest<Answer<{ id: number; count: number }>>(`/admin/users/destroySessions/${userId}`),
});
