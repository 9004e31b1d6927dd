import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { isGs1CompanyPrefix } from '../../../model/sscc';
import { normalizeError } from '../../components/feedback/errors';

/**
 * The admin's card for a carrier company's GS1 company prefix (issue 36 item 3, docs/pallet-labels.md), on the
 * company's detail screen: the same rules as the carrier's own settings section (7–10 digits, one company per
 * prefix), through /admin/label_settings.
 */
export function LabelPrefixSection({ companyId }: { companyId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const key = ['admin', 'label-settings', companyId];
  const settings = useQuery({ queryKey: key, queryFn: () => dataProvider.adminLabelSettings(companyId), staleTime: 0 });
  const [prefix, setPrefix] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) setPrefix(settings.data.gs1_company_prefix ?? '');
  }, [settings.data]);
  const number = (v: number) => new Intl.NumberFormat(locale, { useGrouping: 'always' } as Intl.NumberFormatOptions).format(v);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!isGs1CompanyPrefix(prefix)) return setError(translate('company_labels.format'));
    setError(null);
    setBusy(true);
    try {
      const answer = await dataProvider.saveAdminLabelSettings(companyId, prefix);
      queryClient.setQueryData(key, answer.data);
      notify(answer.message, { type: 'success' });
    } catch (err) {
      const { message, errors } = normalizeError(err);
      setError(errors.gs1_company_prefix?.join(' ') ?? message);
    } finally {
      setBusy(false);
    }
  }

  const data = settings.data;
  return (
    <Card sx={{ mb: 2 }} data-testid="section-labels" component="section" aria-labelledby="company-labels-title">
      <CardContent component="form" onSubmit={submit} noValidate>
        <Typography id="company-labels-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {translate('company_labels.title')}
        </Typography>
        {settings.isPending && <CircularProgress size={24} aria-label={translate('ra.page.loading')} />}
        {settings.isError && <Alert severity="error">{normalizeError(settings.error).message}</Alert>}
        {data && (
          <Box sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
            <TextField
              name="gs1_company_prefix"
              label={translate('company_labels.prefix')}
              value={prefix}
              onChange={(e) => setPrefix(e.target.value.trim())}
              error={!!error}
              helperText={error ?? translate('company_labels.hint')}
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10, 'data-testid': 'company-label-prefix' } }}
            />
            <Box>
              <Button type="submit" variant="contained" disabled={busy} data-testid="company-label-prefix-save">
                {translate('company_labels.save')}
              </Button>
            </Box>
            <Typography variant="body2" data-testid="company-label-serials">
              {data.max_serial === null
                ? translate('company_labels.none')
                : translate('company_labels.used', { used: number(data.last_serial), max: number(data.max_serial) })}
            </Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
