import { type RaThemeOptions } from 'react-admin';
import { deepmerge } from '@mui/utils';
import type { Theme } from '@mui/material';
import { createElement } from 'react';
import { Pager } from '../components/table/Pager';
import { ListErrorBlock } from '../components/feedback/ErrorBlock';
import { EmptyState } from '../components/table/EmptyState';
import { brandTheme } from './brandTheme';

export { APPBAR_HEIGHT, SIDEBAR_WIDTH } from './brandTheme';

/** The shell's theme: the brand theme (brandTheme.ts) and the parts every list shares. */
export const theme: RaThemeOptions = deepmerge(brandTheme, {
  components: {
    // Every list: the shared pager instead of react-admin's pagination, the error block, the empty text.
    // Its main part may shrink to the screen (a flex item's minimum is its content's width: the rate sheets'
    // table pushed a 1280 px page to 1 355 px); a table wider than its box scrolls inside it, not the page.
    RaList: {
      defaultProps: { pagination: createElement(Pager), error: createElement(ListErrorBlock), empty: createElement(EmptyState) },
      styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } },
    },
    RaDataTable: { styleOverrides: { root: { '& .RaDataTable-tableWrapper': { overflowX: 'auto' } } } },
    // A list's toolbar wraps on a phone (its buttons on two lines, right-aligned) instead of running past the edge.
    RaTopToolbar: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({ [theme.breakpoints.down('sm')]: { flexWrap: 'wrap', justifyContent: 'flex-end', rowGap: 8 } }),
      },
    },
  },
} as RaThemeOptions);
