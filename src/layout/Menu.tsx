import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import { Badge, Collapse, List, ListItemButton, ListItemText } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { canAccess } from '../../model/permissions';
import type { Kind } from '../../model/roles';
import { visibleMenu, type MenuEntry } from './menuConfig';
import { useRoutedPaths } from './RoutedPaths';
import { useMenuBadges } from './MenuBadges';

function isActive(path: string, current: string) {
  return path === '/' ? current === '/' : current === path || current.startsWith(`${path}/`);
}

function containsActive(entry: MenuEntry, current: string): boolean {
  return entry.children ? entry.children.some((c) => containsActive(c, current)) : !!entry.path && isActive(entry.path, current);
}

/** The count a page declares for its entry (a hook, called here so it runs only while the menu shows). */
function EntryBadge({ useCount }: { useCount: () => number }) {
  const count = useCount();
  return count > 0 ? (
    <Badge
      badgeContent={count}
      max={99}
      color="error"
      data-testid="menu-badge"
      sx={{ mr: 1, '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
    />
  ) : null;
}

function Entry({ entry, depth, onNavigate }: { entry: MenuEntry; depth: number; onNavigate?: () => void }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(() => containsActive(entry, pathname));
  const badges = useMenuBadges();
  const badge = entry.path ? badges[entry.path] : undefined;
  const label = translate(`text-${entry.name}`);
  const pad = 2 + depth * 1.5;
  if (entry.children) {
    return (
      <>
        <ListItemButton onClick={() => setOpen(!open)} sx={{ pl: pad }} aria-expanded={open} data-menu={entry.name}>
          <ListItemText primary={label} slotProps={{ primary: { fontWeight: 500 } }} />
          {open ? <ExpandLess /> : <ExpandMore />}
        </ListItemButton>
        <Collapse in={open} timeout="auto" unmountOnExit>
          {/* A div, not a ul: the entries are links, not list items (axe's "list" rule, seen with a group open). */}
          <List disablePadding component="div">
            {entry.children.map((c) => (
              <Entry key={c.name} entry={c} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      </>
    );
  }
  const active = isActive(entry.path!, pathname);
  return (
    <ListItemButton
      component={Link}
      to={entry.path!}
      selected={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      sx={{ pl: pad }}
      data-menu={entry.name}
    >
      <ListItemText primary={label} />
      {badge && <EntryBadge useCount={badge} />}
    </ListItemButton>
  );
}

/** The sidebar menu: entries by role (menuConfig), nested groups that expand and collapse, the active link highlighted. */
export function Menu({ onNavigate }: { onNavigate?: () => void }) {
  const { permissions } = usePermissions<Kind>();
  useGetIdentity();
  const routed = useRoutedPaths();
  const entries = visibleMenu(permissions, routed, (k, r) => canAccess(k, r, 'list'));
  return (
    <List component="nav" aria-label="menu" sx={{ py: 1 }} data-testid="sidebar-menu">
      {entries.map((e) => (
        <Entry key={e.name} entry={e} depth={0} onNavigate={onNavigate} />
      ))}
    </List>
  );
}
