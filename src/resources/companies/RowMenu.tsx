import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';

export interface RowMenuAction { label: string; icon?: ReactNode; onClick: () => void; testid: string }

/** A row's action menu: a ⋮ button opening its actions (keyboard: Enter, arrows, Escape). */
export function RowMenu({ actions, label }: { actions: RowMenuAction[]; label?: string }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton size="small" aria-label={label ?? translate('ra.action.open_menu', { _: 'Menu' })} aria-haspopup="menu" data-testid="row-actions"
        onClick={(e) => { e.stopPropagation(); setAnchor(e.currentTarget); }}>
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} onClick={(e) => e.stopPropagation()}>
        {actions.map((a) => (
          <MenuItem key={a.testid} data-testid={a.testid} onClick={() => { setAnchor(null); a.onClick(); }}>
            {a.icon ? <ListItemIcon>{a.icon}</ListItemIcon> : null}
            <ListItemText>{translate(a.label, { _: a.label })}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
