import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, usePermissions, useTranslate, type RaRecord } from 'react-admin';
import { Button } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import type { PortalDataProvider } from '../../dataProvider';
import { normalizeError } from '../../components/feedback/errors';

/** Admins only: ends every session of the user shown (server.md §3 "Sessions"), after a confirmation. */
export function EndSessionsButton({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (permissions !== 'admin') return null;
  const name = [record.first_name, record.last_name].filter(Boolean).join(' ') || String(record.email ?? record.id);

  async function run() {
    setBusy(true);
    try {
      const answer = await dataProvider.endUserSessions(record.id);
      notify(answer.message, { type: 'success' });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  }

  return (
    <>
      <Button startIcon={<LogoutIcon />} color="warning" variant="outlined" onClick={() => setOpen(true)} sx={{ mb: 2 }} data-testid="user-end-sessions">
        {translate('resources.user-management.sessions.end_all')}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('resources.user-management.sessions.title', { name })}
        content={translate('resources.user-management.sessions.text')}
        confirm={translate('resources.user-management.sessions.end_all')}
        confirmColor="warning"
        cancel={translate('resources.user-management.sessions.cancel')}
        onConfirm={run}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
