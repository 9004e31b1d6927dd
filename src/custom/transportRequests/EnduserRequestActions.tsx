import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useGetIdentity, useNotify, useTranslate } from 'react-admin';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import CancelIcon from '@mui/icons-material/DoNotDisturbOn';
import QuoteIcon from '@mui/icons-material/RequestQuoteOutlined';
import SupportIcon from '@mui/icons-material/SupportAgent';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { TIMELINE_NOTE_MAX } from '../../../model/requestTimeline';
import { saveBlob } from '../../components/download';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';
import { useChat, sideOf } from '../support/api';
import { TICKETS_KEY, useRefreshSupport } from '../support/hooks';
import { NewTicketDialog } from '../support/NewTicketDialog';
import { StatusChip as TicketStatusChip } from '../support/TicketList';
import { useInvalidateRequests, usePortalData, type TransportRequest } from './api';
import { Section } from './parts';

/**
 * Cancelling an open request with a reason (issue 35 item 4): the reason is required here and by the server
 * (its 422 lands on the field), and the dialog fills a phone's screen. A request someone changed meanwhile
 * (the carrier confirmed it: 409) closes the dialog with the server's message, and the request is read again.
 */
function CancelRequestDialog({ r, open, onClose, onDone }: { r: TransportRequest; open: boolean; onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = usePortalData();
  const invalidate = useInvalidateRequests();
  const fullScreen = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setReason('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!reason.trim()) {
      setError(translate('open_request.cancel_reason_missing'));
      return;
    }
    setBusy(true);
    try {
      const answer = await dataProvider.cancelRequest(r.id, reason.trim());
      notify(answer.message, { type: 'success' });
      setReason('');
      onClose();
    } catch (e) {
      const field = (e as { body?: { errors?: Record<string, string[]> } })?.body?.errors?.note?.[0];
      if (field) {
        setError(field);
        return;
      }
      notify(normalizeError(e).message, { type: 'error' });
      onClose();
    } finally {
      setBusy(false);
      await invalidate();
      onDone();
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="cancel-request-title" data-testid="cancel-dialog">
      <DialogTitle id="cancel-request-title">{translate('open_request.cancel_title', { id: r.id })}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        <DialogContentText>{translate('open_request.cancel_text')}</DialogContentText>
        <TextField
          label={translate('open_request.cancel_reason')}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          required
          multiline
          minRows={3}
          fullWidth
          autoFocus
          error={!!error}
          helperText={error ?? translate('open_request.cancel_reason_help')}
          slotProps={{ htmlInput: { maxLength: TIMELINE_NOTE_MAX, 'data-testid': 'cancel-reason' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy} data-testid="cancel-back">
          {translate('open_request.cancel_back')}
        </Button>
        <Button variant="contained" color="error" startIcon={<CancelIcon />} onClick={() => void submit()} disabled={busy} data-testid="cancel-submit">
          {translate('open_request.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The end user's buttons on a request's screen (issue 35 item 4): download its quote (once it has a price),
 * open a support ticket about it (then the ticket opens in /support), and cancel it with a reason (only the
 * person who booked it, `user_id`, while it is open: the server refuses anyone else).
 */
export function EnduserRequestActions({ r, onChanged }: { r: TransportRequest; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = usePortalData();
  const refreshSupport = useRefreshSupport();
  const [cancelling, setCancelling] = useState(false);
  const [ticket, setTicket] = useState(false);
  const { identity } = useGetIdentity();
  const canCancel = r.transport_request_status_id === 1 && !!identity && r.user_id != null && String(r.user_id) === String(identity.id);
  return (
    <>
      {!r.to_be_quoted && (
        <Button
          startIcon={<QuoteIcon />}
          variant="outlined"
          data-testid="detail-quote"
          onClick={() =>
            dataProvider
              .downloadQuote('enduser', r.id)
              .then((blob) => saveBlob(blob, translate('open_request.quote_file', { id: r.id })))
              .catch((e) => notify(normalizeError(e).message, { type: 'error' }))
          }
        >
          {translate('open_request.quote')}
        </Button>
      )}
      <Button startIcon={<SupportIcon />} variant="outlined" onClick={() => setTicket(true)} data-testid="detail-ticket">
        {translate('open_request.ticket')}
      </Button>
      {canCancel && (
        <Button startIcon={<CancelIcon />} variant="contained" color="error" onClick={() => setCancelling(true)} data-testid="detail-cancel">
          {translate('open_request.cancel')}
        </Button>
      )}
      <CancelRequestDialog r={r} open={cancelling} onClose={() => setCancelling(false)} onDone={onChanged} />
      <NewTicketDialog
        open={ticket}
        requestId={r.id}
        onClose={() => setTicket(false)}
        onCreated={(t) => {
          setTicket(false);
          refreshSupport();
          navigate(`/support?chat=${t.id}`);
        }}
      />
    </>
  );
}

/**
 * The support tickets about a request (issue 35 item 4), on its screen for those who use the support chat (the
 * end user's company, the carrier's users): subject, status and opening day, each opening its conversation.
 */
export function RequestTickets({ r, kind }: { r: TransportRequest; kind: Kind }) {
  const translate = useTranslate();
  const { date } = useFormat();
  const chat = useChat();
  const side = sideOf(kind);
  const allowed = canAccess(kind, 'support', 'list');
  const tickets = useQuery({
    queryKey: [...TICKETS_KEY, side, { transport_request_id: r.id }],
    queryFn: ({ signal }) => chat.chatTickets(side, { page: 1, per_page: 50, transport_request_id: r.id }, signal),
    enabled: allowed,
  });
  if (!allowed) return null;
  const rows = tickets.data?.data ?? [];
  return (
    <Section title={translate('open_request.tickets_title')} testId="request-tickets">
      {tickets.error ? (
        <Typography color="error">{normalizeError(tickets.error).message}</Typography>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">{tickets.isPending ? '…' : translate('open_request.no_tickets')}</Typography>
      ) : (
        <List dense disablePadding>
          {rows.map((t) => (
            <ListItem key={t.id} disablePadding>
              <ListItemButton component={RouterLink} to={`/support?chat=${t.id}`} data-testid={`request-ticket-${t.id}`} sx={{ px: 1, borderRadius: 1 }}>
                <ListItemText
                  primary={t.subject}
                  secondary={[translate('support.ticket_number', { id: t.id }), translate('open_request.ticket_opened', { date: date(t.created_at) })].join(
                    ' · ',
                  )}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
                <Box sx={{ ml: 1, flexShrink: 0 }}>
                  <TicketStatusChip status={t.status} />
                </Box>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Section>
  );
}
