import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { WEBHOOK_URL_MAX, type WebhookEvent } from '../../../model/webhooks';
import type { PortalDataProvider } from '../../dataProvider';
import type { WebhookEndpoint } from '../../dataProvider/webhooks';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';
import { WebhookDeliveries } from './WebhookDeliveries';
import { ShownOnce } from './ShownOnce';

const KEY = ['account', 'webhooks'];

/** URL and events of a new endpoint; answers the secret to show (once). */
function CreateForm({ events, onCreated, onCancel }: { events: WebhookEvent[]; onCreated: (secret: string) => void; onCancel: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [url, setUrl] = useState('');
  const [chosen, setChosen] = useState<WebhookEvent[]>([...events]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!url.trim()) local.url = translate('webhooks.url_required');
    if (!chosen.length) local.events = translate('webhooks.events_required');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      onCreated((await dataProvider.createWebhook({ url: url.trim(), events: chosen })).data.secret);
    } catch (err) {
      const n = normalizeError(err);
      const fields = Object.fromEntries(Object.entries(n.errors ?? {}).map(([f, m]) => [f.split('.')[0], [m].flat().join(' ')]));
      setErrors(Object.keys(fields).length ? fields : { form: n.message });
    } finally {
      setBusy(false);
    }
  }
  const toggle = (ev: WebhookEvent) => {
    setChosen((c) => (c.includes(ev) ? c.filter((x) => x !== ev) : [...c, ev]));
    setErrors(({ events: _, ...rest }) => rest);
  };
  return (
    <form onSubmit={submit} noValidate>
      <DialogTitle id="webhook-dialog-title">{translate('webhooks.new_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {errors.form && <Alert severity="error">{errors.form}</Alert>}
          <TextField
            autoFocus
            required
            type="url"
            label={translate('webhooks.url')}
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setErrors(({ url: _, ...rest }) => rest);
            }}
            error={!!errors.url}
            helperText={errors.url ?? translate('webhooks.url_hint')}
            slotProps={{ htmlInput: { maxLength: WEBHOOK_URL_MAX, 'data-testid': 'webhook-url' } }}
          />
          <FormControl error={!!errors.events} component="fieldset">
            <FormLabel component="legend">{translate('webhooks.events')}</FormLabel>
            <FormGroup>
              {events.map((ev) => (
                <FormControlLabel
                  key={ev}
                  control={<Checkbox checked={chosen.includes(ev)} onChange={() => toggle(ev)} />}
                  label={
                    <span>
                      {translate(`webhooks.event.${ev}`)}{' '}
                      <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                        {ev}
                      </Typography>
                    </span>
                  }
                />
              ))}
            </FormGroup>
            {errors.events && <FormHelperText>{errors.events}</FormHelperText>}
          </FormControl>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {translate('webhooks.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} data-testid="webhook-submit">
          {translate('webhooks.create')}
        </Button>
      </DialogActions>
    </form>
  );
}

type DialogState = { step: 'form' } | { step: 'shown'; secret: string } | { step: 'deliveries'; endpoint: WebhookEndpoint } | null;

/**
 * "Webhook" (issue 23, docs/webhooks.md): the company's endpoints with their events and status; add one (URL +
 * events; the signing secret is shown once, with copy), see its deliveries (with Resend), delete it (after
 * confirmation).
 */
export function WebhooksCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey: KEY, queryFn: () => dataProvider.webhooks(), staleTime: 0 });
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!deleting) return;
    setBusy(true);
    try {
      notify((await dataProvider.deleteWebhook(deleting.id)).message, { type: 'success' });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
    } finally {
      await queryClient.invalidateQueries({ queryKey: KEY });
      setBusy(false);
      setDeleting(null);
    }
  }
  async function created(secret: string) {
    setDialog({ step: 'shown', secret });
    await queryClient.invalidateQueries({ queryKey: KEY });
  }

  const rows = hooks.data?.data ?? [];
  return (
    <Card component="section" aria-labelledby="webhooks-title" sx={{ mt: 3 }} data-testid="webhooks-card">
      <CardContent sx={{ p: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography id="webhooks-title" variant="h6" component="h2">
            {translate('webhooks.title')}
          </Typography>
          <Box>
            <Button variant="contained" onClick={() => setDialog({ step: 'form' })} disabled={!hooks.data} data-testid="webhook-create">
              {translate('webhooks.create')}
            </Button>
          </Box>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('webhooks.intro')}
        </Typography>
        {hooks.isPending && <CircularProgress size={24} aria-label={translate('webhooks.title')} />}
        {hooks.isError && (
          <Alert severity="error" role="alert">
            {translate('webhooks.load_error')}
          </Alert>
        )}
        {hooks.data && !rows.length && (
          <Typography variant="body2" color="text.secondary">
            {translate('webhooks.none')}
          </Typography>
        )}
        {rows.length > 0 && (
          <TableContainer>
            <Table size="small" data-testid="webhooks-table">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('webhooks.url')}</TableCell>
                  <TableCell>{translate('webhooks.events')}</TableCell>
                  <TableCell>{translate('webhooks.created_by')}</TableCell>
                  <TableCell>{translate('webhooks.status')}</TableCell>
                  <TableCell align="right">{translate('webhooks.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((h) => (
                  <TableRow key={h.id} data-testid="webhook-row">
                    <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{h.url}</TableCell>
                    <TableCell>{h.events.map((ev) => translate(`webhooks.event.${ev}`)).join(', ')}</TableCell>
                    <TableCell>
                      {h.created_by_name}
                      <Typography variant="body2" color="text.secondary">
                        {dateTime(h.created_at)}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <Chip size="small" color={h.status === 'failing' ? 'error' : 'success'} label={translate(`webhooks.${h.status}`)} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Button
                        size="small"
                        onClick={() => setDialog({ step: 'deliveries', endpoint: h })}
                        aria-label={translate('webhooks.deliveries_label', { url: h.url })}
                        data-testid="webhook-deliveries-open"
                      >
                        {translate('webhooks.deliveries')}
                      </Button>
                      <Button
                        size="small"
                        color="warning"
                        disabled={busy}
                        onClick={() => setDeleting(h)}
                        aria-label={translate('webhooks.delete_label', { url: h.url })}
                        data-testid="webhook-delete"
                      >
                        {translate('webhooks.delete')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
      <Dialog
        open={!!dialog}
        aria-labelledby="webhook-dialog-title"
        fullWidth
        maxWidth={dialog?.step === 'deliveries' ? 'lg' : 'sm'}
        onClose={dialog?.step === 'shown' ? undefined : () => setDialog(null)}
      >
        {dialog?.step === 'form' && <CreateForm events={hooks.data?.events ?? []} onCreated={(s) => void created(s)} onCancel={() => setDialog(null)} />}
        {dialog?.step === 'shown' && (
          <ShownOnce value={dialog.secret} onDone={() => setDialog(null)} messages="webhooks" titleId="webhook-dialog-title" testId="webhook-secret" />
        )}
        {dialog?.step === 'deliveries' && <WebhookDeliveries endpoint={dialog.endpoint} onClose={() => setDialog(null)} />}
      </Dialog>
      <Confirm
        isOpen={!!deleting}
        loading={busy}
        title={translate('webhooks.delete_title')}
        content={translate('webhooks.delete_text', { url: deleting?.url ?? '' })}
        confirm={translate('webhooks.delete')}
        confirmColor="warning"
        cancel={translate('webhooks.cancel')}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
