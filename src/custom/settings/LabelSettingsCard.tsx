import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { isGs1CompanyPrefix } from '../../../model/sscc';
import { formatNumber } from '../calculator/numbers';
import { readApiError } from '../accounts/errors';
import { normalizeError } from '../../components/feedback/errors';

const KEY = ['account', 'label-settings'];

/**
 * A carrier's pallet label settings (issue 36 item 3, docs/pallet-labels.md): its GS1 company prefix, checked
 * as typed (7–10 digits) and by the server (format, one company per prefix, only the main account saves).
 * Carrier users see it read-only. Below it, how many SSCCs were given of those the prefix allows.
 */
export function LabelSettingsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const number = (v: number) => formatNumber(v, locale);
  const settings = useQuery({ queryKey: KEY, queryFn: () => dataProvider.labelSettings(), staleTime: 0 });
  const [prefix, setPrefix] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) setPrefix(settings.data.gs1_company_prefix ?? '');
  }, [settings.data]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!isGs1CompanyPrefix(prefix)) {
      setError(translate('label_settings.prefix_format'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const answer = await dataProvider.saveLabelSettings(prefix);
      queryClient.setQueryData(KEY, answer.data);
      notify(answer.message, { type: 'success' });
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      setError(fields.gs1_company_prefix ?? message);
    } finally {
      setBusy(false);
    }
  }

  const data = settings.data;
  return (
    <Card component="section" aria-labelledby="label-settings-title" data-testid="label-settings-card">
      <CardContent component="form" onSubmit={submit} noValidate sx={{ p: 3 }}>
        <Typography id="label-settings-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('label_settings.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('label_settings.intro')}
        </Typography>
        {settings.isPending && <CircularProgress size={24} aria-label={translate('ra.page.loading')} />}
        {settings.isError && <Alert severity="error">{normalizeError(settings.error).message}</Alert>}
        {data && (
          <Box sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
            <TextField
              name="gs1_company_prefix"
              label={translate('label_settings.prefix')}
              value={prefix}
              onChange={(e) => setPrefix(e.target.value.trim())}
              disabled={!data.can_edit}
              error={!!error}
              helperText={error ?? translate('label_settings.prefix_hint')}
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10, 'data-testid': 'label-prefix' } }}
            />
            {data.can_edit ? (
              <Box>
                <Button type="submit" variant="contained" disabled={busy} data-testid="label-prefix-save">
                  {translate('label_settings.save')}
                </Button>
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {translate('label_settings.read_only')}
              </Typography>
            )}
            <Typography variant="body2" data-testid="label-serials">
              {data.max_serial === null
                ? translate('label_settings.none')
                : translate('label_settings.used', { used: number(data.last_serial), max: number(data.max_serial) })}
            </Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
