import type { SxProps } from '@mui/material';

/**
 * The row actions stay at the right edge of a table that is wider than its box and scrolls sideways:
 * on a 1366 px laptop the users table (eleven columns) showed no actions at all, and the rate sheets'
 * download and delete were past the edge, behind a scroll bar at the bottom of the table.
 * Header cells keep the theme's header colour; body cells get the row's (paper unless `rowColour`).
 */
export const STICKY_RIGHT = { position: 'sticky', right: 0, zIndex: 1 } as const;

/** Props for react-admin's `<DataTable.Col>` of row actions. */
export function stickyActionsColumn<R>(rowColour?: (record: R) => string | undefined) {
  return {
    sx: STICKY_RIGHT,
    cellSx: (record: R): SxProps => ({ bgcolor: rowColour?.(record) ?? 'background.paper' }),
  };
}
