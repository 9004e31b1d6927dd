/** Transport request statuses (server.md §5): id, code and the English name; the server translates names. */
export const TRANSPORT_REQUEST_STATUSES = [
  { id: 1, code: 'OP', name: 'Open' },
  { id: 3, code: 'CF', name: 'Confirmed' },
  { id: 4, code: 'RF', name: 'Refused' },
  { id: 5, code: 'IT', name: 'In transit' },
  { id: 6, code: 'DL', name: 'Delivered' },
  { id: 7, code: 'CN', name: 'Cancelled' },
] as const;

/**
 * The ids, for a JSON schema's `enum` (issue 33). Typed as a non-empty tuple of numbers: the static type of
 * such a schema is then `number` (typebox infers `never` from a plain number[]).
 */
export const TRANSPORT_REQUEST_STATUS_IDS: readonly [number, ...number[]] = [
  TRANSPORT_REQUEST_STATUSES[0].id,
  ...TRANSPORT_REQUEST_STATUSES.slice(1).map((s) => s.id),
];
