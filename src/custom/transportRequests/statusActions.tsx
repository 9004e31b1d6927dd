import { useState, type ReactNode } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { Box, TextField, Typography } from '@mui/material';
import { normalizeError } from '../../components/feedback/errors';
import { useInvalidateRequests, usePortalData, type TransportRequest } from './api';
import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/HighlightOff';

export const CONFIRM = 3;
export const REFUSE = 4;

/** A carrier acts on an open request only (calculator document §4: status OP, or id 0). */
export const isOpen = (r: TransportRequest) => r.transport_request_status_id === 1 || r.transport_request_status_id === 0;

/**
 * Confirm and refuse with a confirmation dialog, then a toast naming the request ("Richiesta n. 123
 * confermata", issue 35) or the server's message after the request's number (409 when someone else
 * changed it first, 422 when a request to be quoted has no price yet). The dialog takes a note for
 * the customer, shown in the request's timeline: optional on confirming, required on refusing.
 */
export function useStatusAction(onDone: (status: number) => void): { ask: (r: TransportRequest, status: 3 | 4) => void; dialog: ReactNode } {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = usePortalData();
  const invalidate = useInvalidateRequests();
  const [pending, setPending] = useState<{ r: TransportRequest; status: 3 | 4 } | null>(null);
  // What the dialog shows: the last question asked, kept while it fades out (pending already null), not an empty "n. ?".
  const [shown, setShown] = useState<{ r: TransportRequest; status: 3 | 4 } | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);

  async function run() {
    if (!pending) return;
    if (pending.status === REFUSE && !note.trim()) {
      setNoteError(translate('request_timeline.note_missing'));
      return;
    }
    setBusy(true);
    try {
      await dataProvider.changeRequestStatus(pending.r.id, pending.status, note.trim() || undefined);
      // The message names the request (issue 35): "Richiesta n. 123 confermata".
      notify(translate(pending.status === CONFIRM ? 'requests.confirmed_n' : 'requests.refused_n', { id: pending.r.id }), { type: 'success' });
      await invalidate();
      onDone(pending.status);
    } catch (e) {
      const err = normalizeError(e);
      const field = (e as { body?: { errors?: Record<string, string[]> } })?.body?.errors?.note?.[0];
      if (field) {
        // The server's word on the note: the dialog stays open.
        setNoteError(field);
        setBusy(false);
        return;
      }
      notify(translate('requests.action_failed', { id: pending.r.id, reason: err.message }), { type: 'error' });
      onDone(0);
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  const confirming = shown?.status === CONFIRM;
  const dialog = (
    <Confirm
      isOpen={!!pending}
      loading={busy}
      title={translate(confirming ? 'requests.confirm_title' : 'requests.refuse_title', { id: shown?.r.id ?? '' })}
      content={
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <Typography>{translate(confirming ? 'requests.confirm_text' : 'requests.refuse_text')}</Typography>
          <TextField
            label={translate('request_timeline.note_label')}
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setNoteError(null);
            }}
            required={!confirming}
            multiline
            minRows={2}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'status-note' } }}
            error={!!noteError}
            helperText={noteError ?? translate(confirming ? 'request_timeline.note_optional' : 'request_timeline.note_required')}
          />
        </Box>
      }
      confirm={translate(confirming ? 'requests.confirm' : 'requests.refuse')}
      confirmColor={confirming ? 'primary' : 'warning'}
      // The buttons' own icons (as on the rows): a tick on "Rifiuta" read as a confirmation.
      ConfirmIcon={confirming ? CheckIcon : CloseIcon}
      cancel={translate('requests.cancel')}
      onConfirm={run}
      onClose={() => setPending(null)}
    />
  );
  const ask = (r: TransportRequest, status: 3 | 4) => {
    setNote('');
    setNoteError(null);
    setPending({ r, status });
    setShown({ r, status });
  };
  return { ask, dialog };
}
