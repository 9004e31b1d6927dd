import { useState } from 'react';
import { Confirm, useDataProvider, useListContext, useNotify, useRefresh, useTranslate } from 'react-admin';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import type { PortalDataProvider } from '../../dataProvider';
import type { BulkDeleteAnswer } from '../../dataProvider/declared';
import { ExportMenu } from '../table/ExportMenu';
import { normalizeError } from '../feedback/errors';

/**
 * The actions on the selected rows of a generated list (issue 34): "Esporta selezionati" (the list's export
 * with `?ids=`) and, with `delete` permission, "Elimina" (`POST {api}/bulk`). Shown by react-admin's
 * DataTable above the table while rows are selected.
 */
export function DeclaredBulkActions({ canDelete }: { canDelete: boolean }) {
  const { selectedIds } = useListContext();
  // react-admin's bar is one 48 px line over the table: on a phone the count and two labelled buttons
  // do not fit in 390 px, so the buttons become icons named by their tooltip and label.
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  return (
    <>
      <ExportMenu ids={selectedIds} label="declared.bulk.export" testid="bulk-export" compact={phone} />
      {canDelete ? <BulkDelete compact={phone} /> : null}
    </>
  );
}

/**
 * Deletes the selection in one call after a confirmation. The server's summary is the toast; the ids it
 * did not delete (not found: another company's or already gone; conflict: still used by other rows, with
 * the server's reason) are listed in a dialog, so a partial outcome is never mistaken for a full one.
 */
function BulkDelete({ compact }: { compact: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { resource, selectedIds, onUnselectItems } = useListContext();
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<BulkDeleteAnswer | null>(null);
  const kept = outcome?.results.filter((r) => r.result !== 'deleted') ?? [];

  const run = async () => {
    setBusy(true);
    try {
      const answer = await dataProvider.bulkDelete(resource, selectedIds);
      setAsking(false);
      onUnselectItems();
      refresh();
      if (answer.results.some((r) => r.result !== 'deleted')) setOutcome(answer);
    } catch (e) {
      setAsking(false);
      const n = normalizeError(e);
      notify(n.message, { type: 'error', messageArgs: { _: n.message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {compact ? (
        <Tooltip title={translate('declared.bulk.delete')}>
          <IconButton size="small" color="error" aria-label={translate('declared.bulk.delete')} onClick={() => setAsking(true)} data-testid="bulk-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : (
        <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setAsking(true)} data-testid="bulk-delete">
          {translate('declared.bulk.delete')}
        </Button>
      )}
      <Confirm
        isOpen={asking}
        loading={busy}
        title={translate('declared.bulk.title', { smart_count: selectedIds.length })}
        content={translate('declared.bulk.content')}
        confirm={translate('declared.bulk.delete')}
        confirmColor="warning"
        onConfirm={() => void run()}
        onClose={() => setAsking(false)}
      />
      <Dialog open={!!outcome} onClose={() => setOutcome(null)} fullWidth maxWidth="sm" fullScreen={phone} data-testid="bulk-outcome">
        <DialogTitle>{translate('declared.bulk.result_title')}</DialogTitle>
        <DialogContent>
          <Alert severity={outcome?.deleted ? 'success' : 'info'} sx={{ mb: 2 }} data-testid="bulk-deleted">
            {translate('declared.bulk.deleted', { smart_count: outcome?.deleted ?? 0 })}
          </Alert>
          <Typography fontWeight={600} sx={{ mb: 1 }}>
            {translate('declared.bulk.kept', { smart_count: kept.length })}
          </Typography>
          <Table size="small" data-testid="bulk-kept">
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>{translate('declared.bulk.id')}</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>{translate('declared.bulk.outcome')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {kept.map((r) => (
                <TableRow key={r.id} data-result={r.result}>
                  <TableCell>#{r.id}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Typography variant="body2" fontWeight={600}>
                      {translate(`declared.bulk.${r.result}`)}
                    </Typography>
                    {r.message ? <Typography variant="body2">{r.message}</Typography> : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOutcome(null)} variant="contained" data-testid="bulk-outcome-close">
            {translate('declared.bulk.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
