import { lazy, Suspense, useState, type ComponentProps, type ComponentType, type FunctionComponent } from 'react';
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
 * content area (top bar and sidebar stay); pages outside the shell pass `{ fullPage }` to get it
 * centred on their own backdrop — never a blank flash of the whole app.
 */
export function lazyScreen<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
  opts: { fullPage?: FullPage } = {},
): FunctionComponent<ComponentProps<M[K]>> & { preload: () => Promise<void> } {
  // One request for the module, shared by `preload` and React.lazy; once it has arrived the screen renders
  // the component itself, without suspending: a page started from its prerendered snapshot (issue 37,
  // src/main.tsx) has its module preloaded, and React's first commit is then the page, never the progress.
  let loaded: ComponentType<any> | null = null;
  let loading: Promise<ComponentType<any>> | null = null;
  const fetchModule = () => (loading ??= loadOrReload(load).then((m) => (loaded = m[name] as ComponentType<any>)));
  const Lazy = lazy(async () => ({ default: await fetchModule() }));
  function Screen(props: ComponentProps<M[K]>) {
    // Chosen once per mount: switching from Lazy to the component later would remount the screen.
    const [Component] = useState<ComponentType<any>>(() => loaded ?? Lazy);
    return (
      <Suspense fallback={<ScreenLoading fullPage={opts.fullPage} />}>
        <Component {...props} />
      </Suspense>
    );
  }
  Screen.displayName = `Lazy(${name})`;
  Screen.preload = () => fetchModule().then(() => undefined);
  return Screen;
}

/**
 * Screens outside the shell fill the window: `public` on the sign-in pages' dark backdrop (login →
 * forgotten password stays dark, no white flash), `plain` on the default background (public calculator).
 */
export type FullPage = 'public' | 'plain';

/** What a screen shows while its code arrives: a centred progress, in place of the screen only. */
export function ScreenLoading({ fullPage }: { fullPage?: FullPage }) {
  return (
    <Box
      data-testid="screen-loading"
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: '100%',
        minHeight: fullPage ? '100vh' : '40vh',
        bgcolor: fullPage === 'public' ? 'primary.dark' : fullPage === 'plain' ? 'background.default' : undefined,
      }}
    >
      <CircularProgress sx={{ color: fullPage === 'public' ? 'common.white' : undefined }} />
    </Box>
  );
}

const RELOAD_KEY = 'Portal.chunkReload';

/**
 * A screen's file that fails to arrive is most often a deploy that replaced the files this page's
 * index.html names (their names carry content hashes): the page reloads once, keeping its address, to
 * get the new ones. A second failure within 30 s is thrown instead (react-admin's error screen), so an
 * unreachable server never makes the page reload in a loop.
 */
async function loadOrReload<M>(load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (err) {
    let recent = true; // without session storage a loop cannot be told apart: show the error
    try {
      recent = Date.now() - Number(sessionStorage.getItem(RELOAD_KEY) ?? 0) <= 30_000;
      if (!recent) sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
    } catch {
      /* storage unavailable */
    }
    if (recent) throw err;
    window.location.reload();
    return new Promise<M>(() => {}); // the page is going away: the progress stays until it does
  }
}
