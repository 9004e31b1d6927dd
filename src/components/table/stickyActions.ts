import { alpha, type SxProps, type Theme } from '@mui/material';

/** A flat colour as a background image, laid over the cell's opaque background colour. */
const tint = (c: string) => `linear-gradient(${c}, ${c})`;

/**
 * The row actions stay at the right edge of a table that is wider than its box and scrolls sideways:
 * on a 1366 px laptop the users table (eleven columns) showed no actions at all, and the rate sheets'
 * download and delete were past the edge, behind a scroll bar at the bottom of the table.
 * Header cells keep the theme's header colour; body cells get the row's (`rowColour`, else paper or the
 * stripe of an even row).
 */
export const STICKY_RIGHT = { position: 'sticky', right: 0, zIndex: 1 } as const;

/** Props for react-admin's `<DataTable.Col>` of row actions. */
export function stickyActionsColumn<R>(rowColour?: (record: R) => string | undefined) {
  return {
    sx: STICKY_RIGHT,
    cellSx: (record: R): SxProps => {
      const colour = rowColour?.(record);
      if (colour) return { bgcolor: colour };
      // A striped (even) row's cell takes the row's own colour (the theme's stripe), not a white box at the edge.
      // A hovered or selected row's colour is see-through (MUI's action.hover, the selection's tint): over the
      // cells scrolling beneath, the sticky cell showed their text (issue 34, the address book's phone column),
      // so it lays the same tint over an opaque paper instead.
      // (An object, not a function of the theme: react-admin spreads what cellSx answers into the cell's sx.)
      return {
        bgcolor: 'background.paper',
        'tr:nth-of-type(even) > &': { bgcolor: 'inherit' },
        'tr.MuiTableRow-hover:hover > &': { bgcolor: 'background.paper', backgroundImage: (t: Theme) => tint(t.palette.action.hover) },
        'tr.Mui-selected > &': {
          bgcolor: 'background.paper',
          backgroundImage: (t: Theme) => tint(alpha(t.palette.primary.main, t.palette.action.selectedOpacity)),
        },
        // (DataTable's cellSx is typed over an empty theme; MUI calls these values with the portal's.)
      } as SxProps;
    },
  };
}

/**
 * A column a phone leaves out (`sx` of a `<DataTable.Col>` or a `<TableCell>`): the request tables keep
 * number, route, total, status and actions below `sm`; with every column they scrolled sideways and the
 * status, the first thing looked for, was out of sight.
 */
export const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** Narrower cells on a phone (`sx` of a table): with `WIDE_ONLY` the kept columns fit a 390 px screen. */
export const PHONE_COMPACT = { '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } } as const;

/** A cell's text that stays on one line, except on a phone where it may wrap ("Bologna →" / "Napoli"). */
export const NOWRAP_WIDE = { whiteSpace: { xs: 'normal', sm: 'nowrap' } } as const;
