import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { deepmerge } from '@mui/utils';
import type { Theme } from '@mui/material';

/**
 * Our theme: brand colours (deep harbour blue, signal amber), Roboto served from our own bundle,
 * the shell layout's breakpoints (xs 0, sm 576, md 768, lg 992, xl 1200; mobile layout below lg),
 * readable tables, and the document's transitions (modal and fades 300 ms, backdrop 150 ms).
 */
export const SIDEBAR_WIDTH = '15rem';
export const APPBAR_HEIGHT = '5rem';

/** The brand theme, all the public pages need (src/PublicApp.tsx); the shell adds its lists' parts (theme.ts). */
export const brandTheme: RaThemeOptions = deepmerge(defaultTheme, {
  palette: {
    mode: 'light',
    primary: { main: '#0b4f6c', light: '#3d7a96', dark: '#063347', contrastText: '#ffffff' },
    secondary: { main: '#f6ae2d', contrastText: '#1d1d1d' },
    error: { main: '#c62828' },
    info: { main: '#1565c0' },
    success: { main: '#2e7d32' },
    // MUI's oranges are 3.1:1 (#ed6c02) and 3.8:1 (#e65100) on white: text and chips in warning colours need 4.5:1,
    // also on a selected row (main 5.6:1 on white, 5:1 selected; dark 7.6:1).
    warning: { main: '#b04600', dark: '#8f3a00', contrastText: '#ffffff' },
    background: { default: '#f4f6f8', paper: '#ffffff' },
  },
  typography: { fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif' },
  shape: { borderRadius: 8 },
  breakpoints: { values: { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200 } },
  transitions: { duration: { enteringScreen: 300, leavingScreen: 300 } },
  sidebar: { width: 240, closedWidth: 0 },
  components: {
    // Required inputs: a red asterisk on the label.
    // react-admin writes the asterisk as its own aria-hidden span inside the label.
    MuiFormLabel: { styleOverrides: { asterisk: { color: '#c62828' }, root: { '& span[aria-hidden="true"]': { color: '#c62828' } } } },
    MuiInputLabel: { styleOverrides: { asterisk: { color: '#c62828' } } },
    MuiBackdrop: { defaultProps: { transitionDuration: 150 } },
    // The dialog would pass its own 300 ms to its backdrop; the document wants 150 ms there.
    MuiDialog: {
      defaultProps: { transitionDuration: 300, slotProps: { backdrop: { transitionDuration: 150 } } },
      // Every dialog is full-screen on a phone (below sm, 576 px), as MUI's `fullScreen` makes it: one place for
      // all of them (react-admin's confirmations too), rather than a media query in each (issue 35).
      styleOverrides: {
        paper: ({ theme }: { theme: Theme }) => ({
          [theme.breakpoints.down('sm')]: { margin: 0, width: '100%', maxWidth: '100%', height: '100%', maxHeight: 'none', borderRadius: 0 },
        }),
      },
    },
    // A dialog's buttons go to a second line rather than past a phone's edge.
    MuiDialogActions: { styleOverrides: { root: { flexWrap: 'wrap', rowGap: 8 } } },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600, backgroundColor: '#eef2f5' }, root: { paddingTop: 10, paddingBottom: 10 } } },
    MuiTableRow: { styleOverrides: { root: { '&:nth-of-type(even)': { backgroundColor: '#fafbfc' } } } },
  },
} as RaThemeOptions);
