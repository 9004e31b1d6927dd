import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { Box, Button } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import type { PortalDataProvider } from '../../dataProvider';

/**
 * Confirm and refuse, after a confirmation dialog, for open requests only: rows in CF, RF (or any
 * other state, such as the documents' "Accept") show no actions.
 */
export function StatusActions() {
  const record = useRecordContext<{ id: number; status: string; carrier_name: string }>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [asking, setAsking] = useState<'CF' | 'RF' | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record || record.status !== 'OP') return null;

  async function change(status: 'CF' | 'RF') {
    setBusy(true);
    try {
      const answer = await dataProvider.changeAccessRequestStatus(record!.id, status);
      notify(answer.message, { type: 'success' });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setAsking(null);
      refresh();
    }
  }

  const name = record.carrier_name;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'stretch' }} onClick={(e) => e.stopPropagation()}>
      <Button size="small" variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => setAsking('CF')} data-testid={`confirm-${record.id}`}>
        {translate('request_access.confirm')}
      </Button>
      <Button size="small" variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setAsking('RF')} data-testid={`refuse-${record.id}`}>
        {translate('request_access.refuse')}
      </Button>
      <Confirm
        isOpen={asking !== null}
        loading={busy}
        title={translate(asking === 'RF' ? 'request_access.refuse_title' : 'request_access.confirm_title', { name })}
        content={translate(asking === 'RF' ? 'request_access.refuse_text' : 'request_access.confirm_text')}
        confirm={translate(asking === 'RF' ? 'request_access.refuse' : 'request_access.confirm')}
        confirmColor={asking === 'RF' ? 'warning' : 'primary'}
        onConfirm={() => asking && change(asking)}
        onClose={() => setAsking(null)}
      />
    </Box>
  );
}
