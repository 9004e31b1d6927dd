import type { PortalPage, PortalResource } from '../../resources/types';
import { CreateRequestPage } from './CreateRequestPage';
import { EditRequest } from './EditRequest';
import { requestMessages } from './messages';
import { RequestDetail } from './RequestDetail';
import { REQUESTS_RESOURCE, RequestList } from './RequestList';
import { VisitorRequestPage } from './VisitorRequestPage';

/**
 * Transport requests (issue 9): the data resource the list reads through the data provider, and the
 * screens of the calculator document §2 as custom routes (their paths are not react-admin's).
 */
export const transportRequestsResource: PortalResource = {
  name: REQUESTS_RESOURCE,
  api: {
    paths: { admin: '/admin/transport_requests', carrier: '/company/transport_requests', enduser: '/enduser/transport_requests' },
    listKey: 'transportRequests',
  },
};

export const transportRequestPages: PortalPage[] = [
  { path: '/transport-requests', element: <CreateRequestPage />, messages: requestMessages },
  // The document also names the create screen /transport-request.
  { path: '/transport-request', element: <CreateRequestPage /> },
  { path: '/transport-requests-visuals', element: <RequestList /> },
  { path: '/transport-requests-visuals/:id/:page', element: <RequestDetail /> },
  { path: '/edit-transport-requests/:id/:page', element: <EditRequest /> },
  { path: '/quote/request', element: <VisitorRequestPage />, noLayout: true },
];
