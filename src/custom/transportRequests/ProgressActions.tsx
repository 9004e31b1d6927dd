import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, TextField, Tooltip } from '@mui/material';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ScheduleIcon from '@mui/icons-material/Schedule';
import type { Kind } from '../../../model/roles';
import { normalizeError } from '../../components/feedback/errors';
import { useInvalidateRequests, usePortalData, type TransportRequest } from './api';
import { PodDialog } from './PodDialog';

export const CONFIRMED = 3;
export const IN_TRANSIT = 5;

/** Which step the carrier (its users) or an admin can take next on this request: picked up from confirmed, delivered from in transit. */
export function nextStep(r: TransportRequest, kind: Kind | undefined): 'pickup' | 'deliver' | null {
  if (kind !== 'carrier' && kind !== 'admin') return null;
  if (r.transport_request_status_id === CONFIRMED) return 'pickup';
  if (r.transport_request_status_id === IN_TRANSIT) return 'deliver';
  return null;
}

/** "2026-11-29T09:30" in the browser's time zone, as `<input type="datetime-local">` reads and writes it. */
const localInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

/**
 * The carrier's next step on its request (issue 36 item 1), one button: "Ritirata" on a confirmed request,
 * "Consegnata" on one in transit.
 *
 * "Ritirata" is one tap: the goods are picked up now (the server's clock, so a phone's wrong clock does not
 * matter). The clock beside it opens the same step with another time (the driver tells the office later);
 * both name the request in the toast and the screen stays on it, read again: the new status and its timeline
 * entry show. "Consegnata" opens the proof-of-delivery dialog (PodDialog), which the server requires.
 * `large`: the phone's sticky bar at the bottom of the screen (a full-width button under the thumb).
 */
export function ProgressActions({ r, kind, onDone, large = false }: { r: TransportRequest; kind: Kind | undefined; onDone: () => void; large?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = usePortalData();
  const invalidate = useInvalidateRequests();
  const [busy, setBusy] = useState(false);
  const [timeOpen, setTimeOpen] = useState(false);
  const [time, setTime] = useState('');
  const [timeError, setTimeError] = useState<string | null>(null);
  const [podOpen, setPodOpen] = useState(false);
  const step = nextStep(r, kind);
  if (!step) return null;

  const pickUp = async (at?: string) => {
    setBusy(true);
    try {
      await dataProvider.markPickedUp(r.id, at);
      notify(translate('progress.picked_up_n', { id: r.id }), { type: 'success' });
      setTimeOpen(false);
    } catch (e) {
      const field = (e as { body?: { errors?: Record<string, string[]> } })?.body?.errors?.picked_up_at?.[0];
      if (field && timeOpen) {
        // The server's word on the time: the dialog stays open on it.
        setTimeError(field);
        return;
      }
      notify(translate('progress.failed', { id: r.id, reason: normalizeError(e).message }), { type: 'error' });
      setTimeOpen(false);
    } finally {
      setBusy(false);
    }
    await invalidate();
    onDone();
  };

  const pickUpAt = () => {
    const when = new Date(time);
    if (!time || Number.isNaN(when.getTime())) return void pickUp();
    if (when.getTime() > Date.now() + 60_000) {
      setTimeError(translate('progress.picked_up_at_future'));
      return;
    }
    void pickUp(when.toISOString());
  };

  const size = large ? 'large' : 'medium';
  const full = large ? { flex: 1, py: 1.5, fontSize: '1.05rem' } : {};
  return (
    <>
      {step === 'pickup' ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flex: large ? 1 : undefined }}>
          <Button
            variant="contained"
            size={size}
            startIcon={<LocalShippingIcon />}
            onClick={() => void pickUp()}
            disabled={busy}
            data-testid="detail-picked-up"
            sx={full}
          >
            {translate('progress.picked_up')}
          </Button>
          <Tooltip title={translate('progress.picked_up_other_time')}>
            <IconButton
              aria-label={translate('progress.picked_up_other_time')}
              onClick={() => {
                setTime(localInput(new Date()));
                setTimeError(null);
                setTimeOpen(true);
              }}
              disabled={busy}
              data-testid="detail-picked-up-at"
              size={size}
            >
              <ScheduleIcon />
            </IconButton>
          </Tooltip>
        </Box>
      ) : (
        <Button
          variant="contained"
          color="success"
          size={size}
          startIcon={<DoneAllIcon />}
          onClick={() => setPodOpen(true)}
          data-testid="detail-delivered"
          sx={full}
        >
          {translate('progress.delivered')}
        </Button>
      )}
      {step === 'pickup' && (
        <Dialog
          open={timeOpen}
          onClose={() => !busy && setTimeOpen(false)}
          fullWidth
          maxWidth="xs"
          aria-labelledby="picked-up-title"
          data-testid="picked-up-dialog"
        >
          <DialogTitle id="picked-up-title">{translate('progress.picked_up_title', { id: r.id })}</DialogTitle>
          <DialogContent sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
            <DialogContentText>{translate('progress.picked_up_text')}</DialogContentText>
            <TextField
              type="datetime-local"
              label={translate('progress.picked_up_at')}
              value={time}
              onChange={(e) => {
                setTime(e.target.value);
                setTimeError(null);
              }}
              fullWidth
              error={!!timeError}
              helperText={timeError ?? translate('progress.picked_up_at_hint')}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: localInput(new Date()), 'data-testid': 'picked-up-time' } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setTimeOpen(false)} disabled={busy}>
              {translate('pod.cancel')}
            </Button>
            <Button variant="contained" startIcon={<LocalShippingIcon />} onClick={pickUpAt} disabled={busy} data-testid="picked-up-submit">
              {translate('progress.picked_up')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
      {step === 'deliver' && <PodDialog r={r} open={podOpen} onClose={() => setPodOpen(false)} onDone={onDone} />}
    </>
  );
}
