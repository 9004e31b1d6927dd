import { apiRequest } from '../api/http';

/** The access-request review's action (calculator document "Access requests"): confirm (CF) or refuse (RF). */
export const accessRequestMethods = () => ({
  changeAccessRequestStatus: (id: number, status: 'CF' | 'RF') =>
    apiRequest<{ status: boolean; message: string }>('/company/request_access/changeStatus', { method: 'POST', body: { id, status } }),
});
