import { useEffect, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  TextField,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useChat, MESSAGE_MAX, SUBJECT_MAX, textLength, type Ticket } from './api';
import { numberOf } from './format';

type Field = 'ticket_category_id' | 'subject' | 'message';

/**
 * The end user's "new ticket" form: category, subject and the first message; server errors per field.
 * `requestId`: opened from a transport request (issue 35), the ticket is about it (named in the form).
 */
export function NewTicketDialog({
  open,
  onClose,
  onCreated,
  requestId,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (t: Ticket) => void;
  requestId?: number;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const fullScreen = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  const dataProvider = useChat();
  const categories = useQuery({ queryKey: ['support', 'categories'], queryFn: () => dataProvider.ticketCategories(), enabled: open, staleTime: 0 });
  const [category, setCategory] = useState<number | ''>('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setCategory('');
      setSubject(requestId ? translate('open_request.ticket_subject', { id: requestId }) : '');
      setMessage('');
      setErrors({});
    }
  }, [open, requestId, translate]);

  const submit = async () => {
    const local: typeof errors = {};
    if (!category) local.ticket_category_id = translate('support.required');
    if (!subject.trim()) local.subject = translate('support.required');
    if (!message.trim()) local.message = translate('support.required');
    if (textLength(message) > MESSAGE_MAX) local.message = translate('support.too_long', { max: numberOf(MESSAGE_MAX, locale) });
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const answer = await dataProvider.newTicket({
        ticket_category_id: Number(category),
        subject,
        message,
        ...(requestId ? { transport_request_id: requestId } : {}),
      });
      notify(answer.message, { type: 'success' });
      onCreated(answer.data);
    } catch (err: any) {
      const server = (err?.body?.errors ?? {}) as Record<string, string[]>;
      const next: typeof errors = {};
      for (const f of ['ticket_category_id', 'subject', 'message'] as Field[]) if (server[f]?.length) next[f] = server[f][0];
      if (!Object.keys(next).length) next.form = server.transport_request_id?.[0] ?? err?.message ?? 'Internal server error';
      setErrors(next);
    } finally {
      setBusy(false);
    }
  };

  const length = textLength(message);
  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      aria-labelledby="new-ticket-title"
      data-testid="new-ticket-dialog"
    >
      <DialogTitle id="new-ticket-title">{translate('support.new_ticket')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText>{translate('support.new_ticket_intro')}</DialogContentText>
        {requestId && (
          <Alert severity="info" data-testid="new-ticket-request">
            {translate('open_request.ticket_about', { id: requestId })}
          </Alert>
        )}
        {errors.form && <Alert severity="error">{errors.form}</Alert>}
        <TextField
          select
          required
          label={translate('support.category')}
          value={category}
          onChange={(e) => setCategory(Number(e.target.value))}
          error={!!errors.ticket_category_id}
          helperText={errors.ticket_category_id ?? (categories.error ? (categories.error as Error).message : ' ')}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'ticket-category' } as any } }}
        >
          {(categories.data ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          required
          label={translate('support.subject')}
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          error={!!errors.subject}
          helperText={errors.subject ?? ' '}
          slotProps={{ htmlInput: { maxLength: SUBJECT_MAX, name: 'subject' } }}
        />
        <TextField
          required
          multiline
          minRows={4}
          maxRows={12}
          label={translate('support.message')}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          error={!!errors.message || length > MESSAGE_MAX}
          helperText={errors.message ?? `${numberOf(length, locale)} / ${numberOf(MESSAGE_MAX, locale)}`}
          slotProps={{ htmlInput: { name: 'message' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('support.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="create-ticket">
          {translate('support.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
