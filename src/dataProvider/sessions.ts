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
/** A page of the list, as GET /visitor/sessions answers it. */
export interface SessionsPage {
  data: ActiveSession[];
  current_page: number;
  last_page: number;
  total: number;
}
/** The server's default page size (routes/visitor/sessions.ts). */
export const SESSIONS_PER_PAGE = 10;

/** Active sessions (server.md §3 "Sessions"): the user's own list and ends, and the admins' end-all of a user. */
export const sessionMethods = () => ({
  /** One page of them (issue 35): the current session first, then by last use; `total` counts every one. */
  activeSessions: (page = 1, perPage = SESSIONS_PER_PAGE) =>
    apiRequest<SessionsPage>(`/visitor/sessions?page=${page}&per_page=${perPage}`).then(({ data, current_page, last_page, total }) => ({
      data,
      current_page,
      last_page,
      total,
    })),
  endSession: (id: number) => apiRequest<Answer<{ id: number; current: boolean }>>(`/visitor/sessions/destroy/${id}`),
  endOtherSessions: () => apiRequest<Answer<{ count: number }>>('/visitor/sessions/destroyOthers'),
  endUserSessions: (userId: number | string) => apiRequest<Answer<{ id: number; count: number }>>(`/admin/users/destroySessions/${userId}`),
});
