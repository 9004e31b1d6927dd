import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { Button, Chip, Dialog, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { WEBHOOK_URL_MAX, type WebhookEvent } from '../../../model/webhooks';
import type { PortalDataProvider } from '../../dataProvider';
import type { WebhookEndpoint } from '../../dataProvider/webhooks';
import { useFormat } from '../../components/format';
import { WebhookDeliveries } from './WebhookDeliveries';
import { ShownOnce } from './ShownOnce';
import { ChoiceGroup, DialogForm, useDialogForm } from './DialogForm';
import { ConfirmActionDialog, CreatedCell, ListTable, SettingsListCard, useConfirmedAction } from './SettingsListCard';

const KEY = ['account', 'webhooks'];

/** URL and events of a new endpoint; answers the secret to show (once). */
function CreateForm({ events, onCreated, onCancel }: { events: WebhookEvent[]; onCreated: (secret: string) => void; onCancel: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [url, setUrl] = useState('');
  const [chosen, setChosen] = useState<WebhookEvent[]>([...events]);
  const form = useDialogForm();

  const submit = () =>
    form.submit(
      {
        ...(!url.trim() && { url: translate('webhooks.url_required') }),
        ...(!chosen.length && { events: translate('webhooks.events_required') }),
      },
      async () => onCreated((await dataProvider.createWebhook({ url: url.trim(), events: chosen })).data.secret),
    );
  return (
    <DialogForm titleId="webhook-dialog-title" messages="webhooks" testId="webhook-submit" form={form} onSubmit={() => void submit()} onCancel={onCancel}>
      <TextField
        autoFocus
        required
        type="url"
        label={translate('webhooks.url')}
        value={url}
        onChange={(e) => {
          setUrl(e.target.value);
          form.clear('url');
        }}
        error={!!form.errors.url}
        helperText={form.errors.url ?? translate('webhooks.url_hint')}
        slotProps={{ htmlInput: { maxLength: WEBHOOK_URL_MAX, 'data-testid': 'webhook-url' } }}
      />
      <ChoiceGroup
        legend={translate('webhooks.events')}
        options={events}
        chosen={chosen}
        onChange={(c) => {
          setChosen(c);
          form.clear('events');
        }}
        error={form.errors.events}
        label={(ev) => (
          <span>
            {translate(`webhooks.event.${ev}`)}{' '}
            <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
              {ev}
            </Typography>
          </span>
        )}
      />
    </DialogForm>
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
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey: KEY, queryFn: () => dataProvider.webhooks(), staleTime: 0 });
  const [dialog, setDialog] = useState<DialogState>(null);
  const deleting = useConfirmedAction<WebhookEndpoint>({ queryKey: KEY, run: (h) => dataProvider.deleteWebhook(h.id) });

  async function created(secret: string) {
    setDialog({ step: 'shown', secret });
    await queryClient.invalidateQueries({ queryKey: KEY });
  }

  const t = (key: string) => translate(`webhooks.${key}`);
  return (
    <SettingsListCard
      name="webhooks"
      messages="webhooks"
      list={hooks}
      rows={hooks.data?.data}
      empty={t('none')}
      action={
        <Button variant="contained" onClick={() => setDialog({ step: 'form' })} disabled={!hooks.data} data-testid="webhook-create">
          {t('create')}
        </Button>
      }
      dialogs={
        <>
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
          <ConfirmActionDialog
            action={deleting}
            title={t('delete_title')}
            content={translate('webhooks.delete_text', { url: deleting.target?.url ?? '' })}
            confirm={t('delete')}
            cancel={t('cancel')}
          />
        </>
      }
    >
      <ListTable testId="webhooks-table" messages="webhooks" columns={['url', 'events', 'created_by', 'status', ['actions', 'right']]}>
        {hooks.data?.data.map((h) => (
          <TableRow key={h.id} data-testid="webhook-row">
            <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{h.url}</TableCell>
            <TableCell>{h.events.map((ev) => translate(`webhooks.event.${ev}`)).join(', ')}</TableCell>
            <CreatedCell by={h.created_by_name} at={dateTime(h.created_at)} />
            <TableCell>
              <Chip size="small" color={h.status === 'failing' ? 'error' : 'success'} label={t(h.status)} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Button
                size="small"
                onClick={() => setDialog({ step: 'deliveries', endpoint: h })}
                aria-label={translate('webhooks.deliveries_label', { url: h.url })}
                data-testid="webhook-deliveries-open"
              >
                {t('deliveries')}
              </Button>
              <Button
                size="small"
                color="warning"
                disabled={deleting.busy}
                onClick={() => deleting.ask(h)}
                aria-label={translate('webhooks.delete_label', { url: h.url })}
                data-testid="webhook-delete"
              >
                {t('delete')}
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
    </SettingsListCard>
  );
}
