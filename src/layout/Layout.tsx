import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Authenticated, Loading } from 'react-admin';
import { Box, Drawer, useMediaQuery, type Theme } from '@mui/material';
import { AppBar } from './AppBar';
import { Logo } from './Logo';
import { Menu } from './Menu';
import { Toasts } from '../components/feedback/Toasts';
import { LiveEventsProvider } from '../components/live/LiveEvents';
import { APPBAR_HEIGHT, SIDEBAR_WIDTH } from './theme';

/** The toasts, top-right below the top bar (`<Admin notification={ShellToasts}>`). */
export const ShellToasts = () => <Toasts top={APPBAR_HEIGHT} />;

/**
 * The shell: a sticky top bar and a sidebar about 15 rem wide, fixed on large screens and a
 * slide-in drawer on mobile layouts (the xs, sm and md breakpoints).
 */
export function Layout({ children }: { children: ReactNode }) {
  const mobile = useMediaQuery<Theme>((t) => t.breakpoints.down('lg'), { noSsr: true });
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMobileOpen(false), [pathname]);
  const open = mobile ? mobileOpen : desktopOpen;

  return (
    // One live events stream per tab: the screens' data refreshes from it (docs/live-events.md).
    <LiveEventsProvider>
      <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
        <AppBar onToggle={() => (mobile ? setMobileOpen(!mobileOpen) : setDesktopOpen(!desktopOpen))} />
        <Box sx={{ display: 'flex' }}>
          <Drawer
            variant={mobile ? 'temporary' : 'persistent'}
            open={open}
            onClose={() => setMobileOpen(false)}
            data-testid={mobile ? 'sidebar-drawer' : 'sidebar-fixed'}
            sx={{
              width: open && !mobile ? SIDEBAR_WIDTH : 0,
              // The slide-in drawer covers the top bar; the fixed sidebar sits below it.
              zIndex: (t) => (mobile ? t.zIndex.modal : t.zIndex.drawer),
              flexShrink: 0,
              transition: (t) => t.transitions.create('width'),
              '& .MuiDrawer-paper': {
                width: SIDEBAR_WIDTH,
                boxSizing: 'border-box',
                top: mobile ? 0 : APPBAR_HEIGHT,
                height: mobile ? '100%' : `calc(100% - ${APPBAR_HEIGHT})`,
              },
            }}
          >
            {mobile && (
              <Box sx={{ height: APPBAR_HEIGHT, display: 'flex', alignItems: 'center', px: 2, borderBottom: 1, borderColor: 'divider' }}>
                <Logo />
              </Box>
            )}
            <Menu onNavigate={mobile ? () => setMobileOpen(false) : undefined} />
          </Drawer>
          <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 1.5, md: 3 } }}>
            {/* Every screen inside the shell needs a session; a signed-out visitor is sent to /login. */}
            <Authenticated>
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </Authenticated>
          </Box>
        </Box>
      </Box>
    </LiveEventsProvider>
  );
}
