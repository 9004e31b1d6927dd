/** Transport request statuses (server.md §5): id, code and the English name; the server translates names. */
export const TRANSPORT_REQUEST_STATUSES = [
  { id: 1, code: 'OP', name: 'Open' },
  { id: 3, code: 'CF', name: 'Confirmed' },
  { id: 4, code: 'RF', name: 'Refused' },
  { id: 5, code: 'IT', name: 'In transit' },
  { id: 6, code: 'DL', name: 'Delivered' },
  { id: 7, code: 'CN', name: 'Cancelled' },
] as const;
