import { useRef, useState, type ReactNode } from 'react';
import { useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';

export interface RowAction<R extends RaRecord = RaRecord> {
  /** A message key or text. */
  label: string;
  icon?: ReactNode;
  /** `opener` is the row's menu button, to give the focus back to after a dialog. */
  onClick: (record: R, opener: HTMLElement | null) => void;
  /** Hidden for records where this answers false. */
  show?: (record: R) => boolean;
  testid?: string;
}

/** The shared table's row action menu: a ⋮ button opening the row's actions (keyboard: Enter, arrows, Escape). */
export function RowActions<R extends RaRecord = RaRecord>({ actions }: { actions: Array<RowAction<R>> }) {
  const record = useRecordContext<R>();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  if (!record) return null;
  const visible = actions.filter((a) => !a.show || a.show(record));
  if (!visible.length) return null;
  return (
    <>
      <IconButton
        size="small"
        ref={button}
        aria-label={translate('portal.row_actions')}
        aria-haspopup="menu"
        data-testid="row-actions"
        onClick={(e) => {
          e.stopPropagation();
          setAnchor(e.currentTarget);
        }}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} onClick={(e) => e.stopPropagation()}>
        {visible.map((a) => (
          <MenuItem
            key={a.label}
            data-testid={a.testid}
            onClick={() => {
              setAnchor(null);
              a.onClick(record, button.current);
            }}
          >
            {a.icon ? <ListItemIcon>{a.icon}</ListItemIcon> : null}
            <ListItemText>{translate(a.label, { _: a.label })}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
