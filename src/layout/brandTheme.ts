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

/**
 * A user whose system asks for less motion (`prefers-reduced-motion: reduce`, WCAG 2.3.3) gets none: dialogs,
 * menus, drawers, toasts and collapses appear and go at once, buttons have no ripple. Read once at load, as the
 * theme is made (a change of the setting applies at the next load). The browser tests run so (harness.ts
 * `newPage`): nothing in them waits for an element to stop moving.
 */
const reducedMotion = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const NO_MOTION = {
  transitions: {
    create: () => 'none',
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
  components: {
    MuiButtonBase: { defaultProps: { disableRipple: true } },
    MuiBackdrop: { defaultProps: { transitionDuration: 0 } },
    MuiDialog: { defaultProps: { transitionDuration: 0, slotProps: { backdrop: { transitionDuration: 0 } } } },
    // Menus, selects' lists and pickers grow for a time computed from their height ('auto'), not from the theme.
    MuiPopover: { defaultProps: { transitionDuration: 0 } },
    MuiMenu: { defaultProps: { transitionDuration: 0 } },
    MuiSnackbar: { defaultProps: { transitionDuration: 0 } },
    MuiDrawer: { defaultProps: { transitionDuration: 0 } },
    MuiCollapse: { defaultProps: { timeout: 0 } },
    MuiTooltip: { defaultProps: { slotProps: { transition: { timeout: 0 } } } },
  },
};

/** The brand theme, all the public pages need (src/PublicApp.tsx); the shell adds its lists' parts (theme.ts). */
const brand: RaThemeOptions = deepmerge(defaultTheme, {
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

export const brandTheme: RaThemeOptions = reducedMotion ? deepmerge(brand, NO_MOTION as RaThemeOptions) : brand;
