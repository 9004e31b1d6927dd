import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Alert, Button, Chip, CircularProgress, DialogActions, DialogContent, DialogTitle, Stack, TableCell, TableRow, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import type { WebhookEndpoint } from '../../dataProvider/webhooks';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';
import { ListTable } from './SettingsListCard';

const STATE_COLOR = { pending: 'info', delivered: 'success', failed: 'error' } as const;

/**
 * An endpoint's deliveries, newest first, ten a page: event, request, outcome, the last attempt's HTTP code,
 * duration and time, attempts; Resend for a finished one (a new delivery of the same message).
 */
export function WebhookDeliveries({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const key = ['account', 'webhooks', endpoint.id, 'deliveries', page];
  const list = useQuery({ queryKey: key, queryFn: () => dataProvider.webhookDeliveries(endpoint.id, page), staleTime: 0, placeholderData: keepPreviousData });
  const [busy, setBusy] = useState<number | null>(null);

  async function resend(id: number) {
    setBusy(id);
    try {
      notify((await dataProvider.resendWebhookDelivery(endpoint.id, id)).message, { type: 'success' });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: ['account', 'webhooks'] });
    }
  }

  const rows = list.data?.data ?? [];
  const pages = list.data?.last_page ?? 1;
  return (
    <>
      <DialogTitle id="webhook-dialog-title">{translate('webhooks.deliveries_label', { url: endpoint.url })}</DialogTitle>
      <DialogContent>
        {list.isPending && <CircularProgress size={24} aria-label={translate('webhooks.deliveries')} />}
        {list.isError && <Alert severity="error">{translate('webhooks.load_error')}</Alert>}
        {list.data && !rows.length && (
          <Typography variant="body2" color="text.secondary">
            {translate('webhooks.no_deliveries')}
          </Typography>
        )}
        {rows.length > 0 && (
          <ListTable
            testId="webhook-deliveries"
            messages="webhooks"
            columns={['event_col', 'request', 'state', ['code', 'right'], ['duration', 'right'], 'time', ['attempts', 'right'], ['actions', 'right']]}
          >
            {rows.map((d) => (
              <TableRow key={d.id} data-testid="webhook-delivery-row" data-state={d.state}>
                <TableCell>{translate(`webhooks.event.${d.event_type}`)}</TableCell>
                <TableCell>#{d.transport_request_id}</TableCell>
                <TableCell>
                  <Chip size="small" color={STATE_COLOR[d.state]} label={translate(`webhooks.state_value.${d.state}`)} />
                  {d.state === 'pending' && d.next_attempt_at && d.attempts > 0 && (
                    <Typography variant="caption" display="block" color="text.secondary">
                      {translate('webhooks.next', { at: dateTime(d.next_attempt_at) })}
                    </Typography>
                  )}
                  {d.last_error && (
                    <Typography variant="caption" display="block" color="text.secondary">
                      {d.last_error}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right">{d.last_status_code ?? '—'}</TableCell>
                <TableCell align="right">{d.last_duration_ms === null ? '—' : translate('webhooks.ms', { n: d.last_duration_ms })}</TableCell>
                <TableCell>{d.last_attempt_at ? dateTime(d.last_attempt_at) : '—'}</TableCell>
                <TableCell align="right">{d.attempts}</TableCell>
                <TableCell align="right">
                  {d.state !== 'pending' && (
                    <Button
                      size="small"
                      disabled={busy !== null}
                      onClick={() => void resend(d.id)}
                      aria-label={translate('webhooks.resend_label', { id: d.id })}
                      data-testid="webhook-resend"
                    >
                      {translate('webhooks.resend')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </DialogContent>
      <DialogActions>
        {pages > 1 && (
          <Stack direction="row" spacing={1} sx={{ mr: 'auto', alignItems: 'center' }}>
            <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {translate('webhooks.previous')}
            </Button>
            <Typography variant="body2">{translate('webhooks.page', { page, pages })}</Typography>
            <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {translate('webhooks.more')}
            </Button>
          </Stack>
        )}
        <Button onClick={onClose} data-testid="webhook-deliveries-close">
          {translate('webhooks.close')}
        </Button>
      </DialogActions>
    </>
  );
}
