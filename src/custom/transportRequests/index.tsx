import type { PortalPage, PortalResource } from '../../resources/types';
import { lazyScreen } from '../../components/lazyScreen';
import { requestMessages } from './messages';
import { labelMessages } from './labelMessages';
import { REQUESTS_RESOURCE } from './resource';

// The screens load when first opened (src/components/lazyScreen.tsx).
const CreateRequestPage = lazyScreen(() => import('./CreateRequestPage'), 'CreateRequestPage');
const EditRequest = lazyScreen(() => import('./EditRequest'), 'EditRequest');
const RequestDetail = lazyScreen(() => import('./RequestDetail'), 'RequestDetail');
const RequestList = lazyScreen(() => import('./RequestList'), 'RequestList');

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
  { path: '/transport-requests-visuals/:id/:page', element: <RequestDetail />, messages: labelMessages },
  { path: '/edit-transport-requests/:id/:page', element: <EditRequest /> },
];
