import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { Button, Chip, Dialog, TableCell, TableRow, TextField, Typography } from '@mui/material';
import type { ApiKeyScope } from '../../../model/apiKeys';
import type { PortalDataProvider } from '../../dataProvider';
import type { ApiKey } from '../../dataProvider/apiKeys';
import { useFormat } from '../../components/format';
import { ShownOnce } from './ShownOnce';
import { ChoiceGroup, DialogForm, useDialogForm } from './DialogForm';
import { ConfirmActionDialog, CreatedCell, ListTable, SettingsListCard, useConfirmedAction } from './SettingsListCard';

const KEY = ['account', 'api-keys'];

/** Name and scopes of a new key; answers the key to show (once). */
function CreateForm({ scopes, onCreated, onCancel }: { scopes: ApiKeyScope[]; onCreated: (key: string) => void; onCancel: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<ApiKeyScope[]>([]);
  const form = useDialogForm();

  const submit = () =>
    form.submit(
      {
        ...(!name.trim() && { name: translate('api_keys.name_required') }),
        ...(!chosen.length && { scopes: translate('api_keys.scopes_required') }),
      },
      async () => onCreated((await dataProvider.createApiKey({ name: name.trim(), scopes: chosen })).data.key),
    );
  return (
    <DialogForm titleId="api-key-dialog-title" messages="api_keys" testId="api-key-submit" form={form} onSubmit={() => void submit()} onCancel={onCancel}>
      <TextField
        autoFocus
        required
        label={translate('api_keys.name')}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          form.clear('name');
        }}
        error={!!form.errors.name}
        helperText={form.errors.name ?? translate('api_keys.name_hint')}
        slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'api-key-name' } }}
      />
      <ChoiceGroup
        legend={translate('api_keys.scopes')}
        options={scopes}
        chosen={chosen}
        onChange={(c) => {
          setChosen(c);
          form.clear('scopes');
        }}
        error={form.errors.scopes}
        testId="api-key-scope"
        label={(s) => (
          <span>
            {translate(`api_keys.scope.${s}`)}{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              — {translate(`api_keys.scope_hint.${s}`)}
            </Typography>
          </span>
        )}
      />
    </DialogForm>
  );
}

/**
 * "Chiavi API" (issue 23, docs/integrations.md): the company's keys with their scopes, creator and last use;
 * create one (name + scopes; the key is shown once, with copy) or revoke one (after confirmation).
 */
export function ApiKeysCard() {
  const translate = useTranslate();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: KEY, queryFn: () => dataProvider.apiKeys(), staleTime: 0 });
  const [dialog, setDialog] = useState<{ step: 'form' } | { step: 'shown'; key: string } | null>(null);
  const revoking = useConfirmedAction<ApiKey>({ queryKey: KEY, run: (k) => dataProvider.revokeApiKey(k.id) });

  async function created(key: string) {
    setDialog({ step: 'shown', key });
    await queryClient.invalidateQueries({ queryKey: KEY });
  }

  const t = (key: string) => translate(`api_keys.${key}`);
  return (
    <SettingsListCard
      name="api-keys"
      messages="api_keys"
      list={keys}
      rows={keys.data?.data}
      empty={t('none')}
      action={
        <Button variant="contained" onClick={() => setDialog({ step: 'form' })} disabled={!keys.data} data-testid="api-key-create">
          {t('create')}
        </Button>
      }
      dialogs={
        <>
          <Dialog
            open={!!dialog}
            aria-labelledby="api-key-dialog-title"
            fullWidth
            maxWidth="sm"
            onClose={dialog?.step === 'form' ? () => setDialog(null) : undefined}
          >
            {dialog?.step === 'form' && <CreateForm scopes={keys.data?.scopes ?? []} onCreated={(k) => void created(k)} onCancel={() => setDialog(null)} />}
            {dialog?.step === 'shown' && (
              <ShownOnce value={dialog.key} onDone={() => setDialog(null)} messages="api_keys" titleId="api-key-dialog-title" testId="api-key-value" />
            )}
          </Dialog>
          <ConfirmActionDialog
            action={revoking}
            title={t('revoke_title')}
            content={translate('api_keys.revoke_text', { name: revoking.target?.name ?? '', prefix: revoking.target?.prefix ?? '' })}
            confirm={t('revoke')}
            cancel={t('cancel')}
          />
        </>
      }
    >
      <ListTable testId="api-keys-table" messages="api_keys" columns={['name', 'prefix', 'scopes', 'created_by', 'last_used', 'status', ['actions', 'right']]}>
        {keys.data?.data.map((k) => (
          <TableRow key={k.id} data-testid="api-key-row" data-revoked={k.revoked_at ? 'true' : 'false'}>
            <TableCell>{k.name}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{k.prefix}…</TableCell>
            <TableCell>{k.scopes.map((s) => translate(`api_keys.scope.${s}`)).join(', ')}</TableCell>
            <CreatedCell by={k.created_by_name} at={dateTime(k.created_at)} />
            <TableCell>{k.last_used_at ? dateTime(k.last_used_at) : t('never_used')}</TableCell>
            <TableCell>
              <Chip size="small" color={k.revoked_at ? 'default' : 'success'} label={t(k.revoked_at ? 'revoked' : 'active')} />
            </TableCell>
            <TableCell align="right">
              {!k.revoked_at && (
                <Button
                  size="small"
                  color="warning"
                  disabled={revoking.busy}
                  onClick={() => revoking.ask(k)}
                  aria-label={translate('api_keys.revoke_label', { name: k.name })}
                  data-testid="api-key-revoke"
                >
                  {t('revoke')}
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
    </SettingsListCard>
  );
}
