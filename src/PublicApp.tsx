import { useMemo } from 'react';
import { Route, Routes } from 'react-router-dom';
import { CoreAdminContext } from 'ra-core';
import { CssBaseline, ThemeProvider, createTheme, type Theme } from '@mui/material';
import { authProvider } from './authProvider';
import { readRole } from './authProvider/session';
import { kindOfRoleName } from '../model/roles';
import { buildVisitorDataProvider } from './dataProvider/visitor';
import { APPBAR_HEIGHT, brandTheme } from './layout/brandTheme';
import { Toasts } from './components/feedback/Toasts';
import { announceFieldErrors, announceSuccess } from './components/feedback/bus';
import { publicPages } from './publicPages';
import { publicI18n } from './publicI18n';
import { queryClient, store } from './shellState';

/**
 * Built at the shell's first render, not when the module is evaluated (issue 37): evaluating the entry's
 * modules is one task the browser cannot split, and the theme's deep merges were a few milliseconds of it
 * (×4 on Lighthouse's phone); the first render is React's, in slices.
 */
let muiTheme: Theme | null = null;
const theme = () => (muiTheme ??= createTheme(brandTheme));

/**
 * The visitor's shell (issue 18): react-admin's headless core (providers, translations, login,
 * notifications) and the brand theme around the public pages, without the signed-in shell's screens,
 * layout and lists (App.tsx), which a visitor's phone never downloads. src/main.tsx picks this shell
 * for the public routes; signing in navigates to `/`, where main.tsx mounts App.
 */
export default function PublicApp() {
  // The shell's and the components' texts; each page brings its own (src/publicI18n.ts).
  const i18nProvider = publicI18n().provider;
  // The public pages use only the data provider's named methods of their areas (src/dataProvider/visitor.ts).
  const dataProvider = useMemo(
    () =>
      buildVisitorDataProvider({
        onAnswer: (message) => announceSuccess({ message }),
        onFieldErrors: announceFieldErrors,
        getKind: () => kindOfRoleName(readRole()),
      }),
    [],
  );
  return (
    <CoreAdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} store={store} queryClient={queryClient}>
      <ThemeProvider theme={theme()}>
        <CssBaseline />
        <Routes>
          {publicPages.map((p) => (
            <Route key={p.path} path={p.path} element={p.element} />
          ))}
        </Routes>
        <Toasts top={APPBAR_HEIGHT} />
      </ThemeProvider>
    </CoreAdminContext>
  );
}
