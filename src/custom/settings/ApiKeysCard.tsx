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
import type { ApiKeyScope } from '../../../model/apiKeys';
import type { PortalDataProvider } from '../../dataProvider';
import type { ApiKey } from '../../dataProvider/apiKeys';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';
import { ShownOnce } from './ShownOnce';

const KEY = ['account', 'api-keys'];

/** Name and scopes of a new key; answers the key to show (once). */
function CreateForm({ scopes, onCreated, onCancel }: { scopes: ApiKeyScope[]; onCreated: (key: string) => void; onCancel: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<ApiKeyScope[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = translate('api_keys.name_required');
    if (!chosen.length) local.scopes = translate('api_keys.scopes_required');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const answer = await dataProvider.createApiKey({ name: name.trim(), scopes: chosen });
      onCreated(answer.data.key);
    } catch (err) {
      const n = normalizeError(err);
      const fields = Object.fromEntries(Object.entries(n.errors ?? {}).map(([f, m]) => [f.split('.')[0], [m].flat().join(' ')]));
      setErrors(Object.keys(fields).length ? fields : { form: n.message });
    } finally {
      setBusy(false);
    }
  }

  const toggle = (s: ApiKeyScope) => {
    setChosen((c) => (c.includes(s) ? c.filter((x) => x !== s) : [...c, s]));
    setErrors(({ scopes: _, ...rest }) => rest);
  };
  return (
    <form onSubmit={submit} noValidate>
      <DialogTitle id="api-key-dialog-title">{translate('api_keys.new_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {errors.form && <Alert severity="error">{errors.form}</Alert>}
          <TextField
            autoFocus
            required
            label={translate('api_keys.name')}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setErrors(({ name: _, ...rest }) => rest);
            }}
            error={!!errors.name}
            helperText={errors.name ?? translate('api_keys.name_hint')}
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'api-key-name' } }}
          />
          <FormControl error={!!errors.scopes} component="fieldset">
            <FormLabel component="legend">{translate('api_keys.scopes')}</FormLabel>
            <FormGroup>
              {scopes.map((s) => (
                <FormControlLabel
                  key={s}
                  control={
                    <Checkbox
                      checked={chosen.includes(s)}
                      onChange={() => toggle(s)}
                      slotProps={{ input: { 'data-testid': `api-key-scope-${s}` } as object }}
                    />
                  }
                  label={
                    <span>
                      {translate(`api_keys.scope.${s}`)}{' '}
                      <Typography component="span" variant="body2" color="text.secondary">
                        — {translate(`api_keys.scope_hint.${s}`)}
                      </Typography>
                    </span>
                  }
                />
              ))}
            </FormGroup>
            {errors.scopes && <FormHelperText>{errors.scopes}</FormHelperText>}
          </FormControl>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {translate('api_keys.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} data-testid="api-key-submit">
          {translate('api_keys.create')}
        </Button>
      </DialogActions>
    </form>
  );
}

/**
 * "Chiavi API" (issue 23, docs/integrations.md): the company's keys with their scopes, creator and last use;
 * create one (name + scopes; the key is shown once, with copy) or revoke one (after confirmation).
 */
export function ApiKeysCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: KEY, queryFn: () => dataProvider.apiKeys(), staleTime: 0 });
  const [dialog, setDialog] = useState<{ step: 'form' } | { step: 'shown'; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [busy, setBusy] = useState(false);

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      notify((await dataProvider.revokeApiKey(revoking.id)).message, { type: 'success' });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
    } finally {
      await queryClient.invalidateQueries({ queryKey: KEY });
      setBusy(false);
      setRevoking(null);
    }
  }
  async function created(key: string) {
    setDialog({ step: 'shown', key });
    await queryClient.invalidateQueries({ queryKey: KEY });
  }

  const rows = keys.data?.data ?? [];
  return (
    <Card component="section" aria-labelledby="api-keys-title" sx={{ mt: 3 }} data-testid="api-keys-card">
      <CardContent sx={{ p: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography id="api-keys-title" variant="h6" component="h2">
            {translate('api_keys.title')}
          </Typography>
          <Box>
            <Button variant="contained" onClick={() => setDialog({ step: 'form' })} disabled={!keys.data} data-testid="api-key-create">
              {translate('api_keys.create')}
            </Button>
          </Box>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('api_keys.intro')}
        </Typography>
        {keys.isPending && <CircularProgress size={24} aria-label={translate('api_keys.title')} />}
        {keys.isError && (
          <Alert severity="error" role="alert">
            {translate('api_keys.load_error')}
          </Alert>
        )}
        {keys.data && !rows.length && (
          <Typography variant="body2" color="text.secondary">
            {translate('api_keys.none')}
          </Typography>
        )}
        {rows.length > 0 && (
          <TableContainer>
            <Table size="small" data-testid="api-keys-table">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('api_keys.name')}</TableCell>
                  <TableCell>{translate('api_keys.prefix')}</TableCell>
                  <TableCell>{translate('api_keys.scopes')}</TableCell>
                  <TableCell>{translate('api_keys.created_by')}</TableCell>
                  <TableCell>{translate('api_keys.last_used')}</TableCell>
                  <TableCell>{translate('api_keys.status')}</TableCell>
                  <TableCell align="right">{translate('api_keys.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((k) => (
                  <TableRow key={k.id} data-testid="api-key-row" data-revoked={k.revoked_at ? 'true' : 'false'}>
                    <TableCell>{k.name}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{k.prefix}…</TableCell>
                    <TableCell>{k.scopes.map((s) => translate(`api_keys.scope.${s}`)).join(', ')}</TableCell>
                    <TableCell>
                      {k.created_by_name}
                      <Typography variant="body2" color="text.secondary">
                        {dateTime(k.created_at)}
                      </Typography>
                    </TableCell>
                    <TableCell>{k.last_used_at ? dateTime(k.last_used_at) : translate('api_keys.never_used')}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={k.revoked_at ? 'default' : 'success'}
                        label={translate(k.revoked_at ? 'api_keys.revoked' : 'api_keys.active')}
                      />
                    </TableCell>
                    <TableCell align="right">
                      {!k.revoked_at && (
                        <Button
                          size="small"
                          color="warning"
                          disabled={busy}
                          onClick={() => setRevoking(k)}
                          aria-label={translate('api_keys.revoke_label', { name: k.name })}
                          data-testid="api-key-revoke"
                        >
                          {translate('api_keys.revoke')}
                        </Button>
                      )}
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
      <Confirm
        isOpen={!!revoking}
        loading={busy}
        title={translate('api_keys.revoke_title')}
        content={translate('api_keys.revoke_text', { name: revoking?.name ?? '', prefix: revoking?.prefix ?? '' })}
        confirm={translate('api_keys.revoke')}
        confirmColor="warning"
        cancel={translate('api_keys.cancel')}
        onConfirm={revoke}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
}
