import { useState } from 'react';
import { useDataProvider, useListContext, useNotify, useTranslate } from 'react-admin';
import { Button, CircularProgress, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import GridOnIcon from '@mui/icons-material/GridOn';
import DescriptionIcon from '@mui/icons-material/Description';
import type { PortalDataProvider } from '../../dataProvider';

/**
 * "Esporta" (issue 24 item 3, docs/list-exports.md): a list's toolbar button with a small menu, Excel
 * (.xlsx) or CSV. The server writes the file from the list's current filters and sort (every row, not
 * only the page shown), so a long list never loads in the tab; the button spins while the file comes, a
 * failure says why (the server's message: too many rows, a filter refused).
 */
export function ExportMenu({
  resource,
  ids,
  label = 'portal.export.label',
  testid = 'export-menu',
  compact = false,
}: {
  resource?: string;
  /** Only these rows ("Esporta selezionati", issue 34: the list's bulk action, `?ids=`). */
  ids?: ReadonlyArray<string | number>;
  /** The button's message key. */
  label?: string;
  testid?: string;
  /** An icon with its name as a tooltip and label (a phone's bulk actions bar, 48 px high and 390 wide). */
  compact?: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const list = useListContext();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const target = resource ?? list.resource;

  const run = async (format: 'xlsx' | 'csv') => {
    setAnchor(null);
    setBusy(true);
    try {
      // The selected rows are what the user picked: the list's filters (changed since, perhaps) do not narrow them.
      await dataProvider.exportList(target, { filter: ids?.length ? undefined : list.filterValues, sort: list.sort, format, ids });
    } catch (e) {
      const message = (e as { body?: { message?: string }; message?: string })?.body?.message ?? (e as Error)?.message;
      notify(message && !message.startsWith('ra.') ? message : 'portal.export.failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  // What the button and the phone's icon share: opening the menu, busy while the file comes.
  const opener = {
    onClick: (e: React.MouseEvent<HTMLElement>) => setAnchor(e.currentTarget),
    disabled: busy,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': anchor ? ('true' as const) : undefined,
    'aria-busy': busy || undefined,
    'data-testid': testid,
  };

  return (
    <>
      {compact ? (
        <Tooltip title={translate(label)}>
          <span>
            <IconButton size="small" color="primary" aria-label={translate(busy ? 'portal.export.busy' : label)} {...opener}>
              {busy ? <CircularProgress size={16} /> : <FileDownloadIcon fontSize="small" />}
            </IconButton>
          </span>
        </Tooltip>
      ) : (
        <Button size="small" startIcon={busy ? <CircularProgress size={16} aria-label={translate('portal.export.busy')} /> : <FileDownloadIcon />} {...opener}>
          {translate(busy ? 'portal.export.busy' : label)}
        </Button>
      )}
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void run('xlsx')} data-testid="export-xlsx">
          <ListItemIcon>
            <GridOnIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={translate('portal.export.xlsx')} />
        </MenuItem>
        <MenuItem onClick={() => void run('csv')} data-testid="export-csv">
          <ListItemIcon>
            <DescriptionIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={translate('portal.export.csv')} />
        </MenuItem>
      </Menu>
    </>
  );
}
