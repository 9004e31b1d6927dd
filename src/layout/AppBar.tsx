import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useGetIdentity, useLogout, useTranslate } from 'react-admin';
import { AppBar as MuiAppBar, Avatar, Box, Button, IconButton, ListItemIcon, Menu, MenuItem, Skeleton, Toolbar, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import MenuIcon from '@mui/icons-material/Menu';
import SettingsIcon from '@mui/icons-material/Settings';
import LogoutIcon from '@mui/icons-material/Logout';
import { APPBAR_HEIGHT } from './theme';
import { Logo } from './Logo';
import { LanguageSwitcher } from './LanguageSwitcher';
import { NotificationBell } from './NotificationBell';

/** Profile image and name (a placeholder while the profile loads), Account Settings and Logout. */
export function UserMenu() {
  const { identity, isPending } = useGetIdentity();
  const translate = useTranslate();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (isPending || !identity) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="user-menu-loading">
        <Skeleton variant="circular" width={36} height={36} />
        <Skeleton variant="text" width={110} />
      </Box>
    );
  }
  const name = `${identity.first_name ?? ''} ${identity.last_name ?? ''}`.trim();
  return (
    <>
      <Button onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="menu" data-testid="user-menu" sx={{ textTransform: 'none', color: 'inherit', gap: 1 }}>
        <Avatar src={identity.avatar} alt={name} sx={{ width: 36, height: 36, bgcolor: 'secondary.main', color: 'secondary.contrastText' }}>
          {(identity.first_name?.[0] ?? '') + (identity.last_name?.[0] ?? '')}
        </Avatar>
        <Typography sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 500 }} data-testid="user-name">
          {name}
        </Typography>
        {/* The name is the button's text; what the button is for is said after it, to screen readers. */}
        <Box component="span" sx={visuallyHidden}>
          {translate('portal.user_menu')}
        </Box>
      </Button>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem component={Link} to="/settings" onClick={() => setAnchor(null)}>
          <ListItemIcon>
            <SettingsIcon fontSize="small" />
          </ListItemIcon>
          {translate('portal.account_settings')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            logout();
          }}
          data-testid="logout"
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('portal.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}

/** The sticky top bar (~5 rem): menu toggle, logo, language switcher, notifications bell and user menu. */
export function AppBar({ onToggle }: { onToggle: () => void }) {
  const translate = useTranslate();
  return (
    <MuiAppBar position="sticky" color="inherit" elevation={1} sx={{ height: APPBAR_HEIGHT, justifyContent: 'center', zIndex: (t) => t.zIndex.drawer + 1 }}>
      {/* Narrower gaps on a phone: at 360 px the bar's six items pushed the page to 377 px (issue 35). */}
      <Toolbar sx={{ gap: { xs: 1, sm: 2 }, px: { xs: 1, sm: 2 } }}>
        <IconButton edge="start" onClick={onToggle} aria-label={translate('portal.toggle_menu')} data-testid="menu-toggle" sx={{ ml: { xs: 0, sm: -1.5 } }}>
          <MenuIcon />
        </IconButton>
        <Logo />
        <Box sx={{ flex: 1 }} />
        <LanguageSwitcher />
        <NotificationBell />
        <UserMenu />
      </Toolbar>
    </MuiAppBar>
  );
}
