import { lazy, Suspense, type ComponentProps, type ComponentType, type FunctionComponent } from 'react';
import { Box, CircularProgress } from '@mui/material';

/**
 * Screens are loaded on demand (issue 11: the login screen's first load stays ≤ 350 KB of gzipped JS).
 * A folder's index.ts keeps its metadata eager (path, name, api, messages, menu badge) and names its
 * heavy components through this helper, which imports the module the first time the screen renders:
 *
 *   list: lazyScreen(() => import('./CompanyList'), 'CompanyList'),
 *   element: <Screen />   where   const Screen = lazyScreen(() => import('./SupportPage'), 'SupportPage');
 *
 * Always write the `import('./File')` literally at the call site so the bundler sees it and makes the
 * chunk; never import the same file statically elsewhere in the shell, or it lands in the first load.
 *
 * The screen carries its own Suspense boundary: inside the shell the progress sits centred in the
 * content area (top bar and sidebar stay), outside it (sign-in pages) centred on the page — never a
 * blank flash of the whole app. A chunk that fails to load throws into react-admin's error page.
 */
export function lazyScreen<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
): FunctionComponent<ComponentProps<M[K]>> {
  const Lazy = lazy(async () => ({ default: (await load())[name] as ComponentType<any> }));
  function Screen(props: ComponentProps<M[K]>) {
    return (
      <Suspense fallback={<ScreenLoading />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  Screen.displayName = `Lazy(${name})`;
  return Screen;
}

/** What a screen shows while its code arrives: a centred progress, in place of the screen only. */
export function ScreenLoading() {
  return (
    <Box data-testid="screen-loading"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '40vh', width: '100%' }}>
      <CircularProgress />
    </Box>
  );
}
