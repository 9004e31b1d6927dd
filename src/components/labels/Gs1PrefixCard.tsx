import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import { isGs1CompanyPrefix } from '../../../model/sscc';
import { normalizeError } from '../feedback/errors';

/** What the label settings routes answer (`/company/label_settings`, `/admin/label_settings/{id}`). */
export interface Gs1PrefixSettings {
  gs1_company_prefix: string | null;
  last_serial: number;
  max_serial: number | null;
  can_edit: boolean;
}

/**
 * A carrier's GS1 company prefix (issue 36 item 3, docs/pallet-labels.md), one form for the carrier's own
 * settings section and the admin's card on a carrier company: checked as typed (7–10 digits) and by the server
 * (format, one company per prefix, only the carrier's main account saves). Without `can_edit` it is read-only.
 * Below it, how many SSCCs were given of those the prefix allows. The texts are `<texts>.title`, `.intro`
 * (optional), `.prefix`, `.prefix_hint`, `.prefix_format`, `.save`, `.used`, `.none`, `.read_only`.
 */
export function Gs1PrefixCard({
  queryKey,
  load,
  save,
  texts,
  testId,
  intro = false,
}: {
  queryKey: readonly unknown[];
  load: () => Promise<Gs1PrefixSettings>;
  save: (prefix: string) => Promise<{ message: string; data: Gs1PrefixSettings }>;
  texts: string;
  /** `<testId>-card`, `<testId>-prefix`, `<testId>-prefix-save`, `<testId>-serials` */
  testId: string;
  intro?: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey, queryFn: load, staleTime: 0 });
  const [prefix, setPrefix] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) setPrefix(settings.data.gs1_company_prefix ?? '');
  }, [settings.data]);
  const number = (v: number) => new Intl.NumberFormat(locale, { useGrouping: 'always' } as Intl.NumberFormatOptions).format(v);
  const titleId = `${testId}-title`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!isGs1CompanyPrefix(prefix)) return setError(translate(`${texts}.prefix_format`));
    setError(null);
    setBusy(true);
    try {
      const answer = await save(prefix);
      queryClient.setQueryData(queryKey, answer.data);
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
    <Card component="section" aria-labelledby={titleId} data-testid={`${testId}-card`} sx={{ mb: 2 }}>
      <CardContent component="form" onSubmit={submit} noValidate sx={{ p: 3 }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ mb: intro ? 1 : 2 }}>
          {translate(`${texts}.title`)}
        </Typography>
        {intro && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate(`${texts}.intro`)}
          </Typography>
        )}
        {settings.isPending && <CircularProgress size={24} aria-label={translate('ra.page.loading')} />}
        {settings.isError && <Alert severity="error">{normalizeError(settings.error).message}</Alert>}
        {data && (
          <Box sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
            <TextField
              name="gs1_company_prefix"
              label={translate(`${texts}.prefix`)}
              value={prefix}
              onChange={(e) => setPrefix(e.target.value.trim())}
              disabled={!data.can_edit}
              error={!!error}
              helperText={error ?? translate(`${texts}.prefix_hint`)}
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10, 'data-testid': `${testId}-prefix` } }}
            />
            {data.can_edit ? (
              <Box>
                <Button type="submit" variant="contained" disabled={busy} data-testid={`${testId}-prefix-save`}>
                  {translate(`${texts}.save`)}
                </Button>
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {translate(`${texts}.read_only`)}
              </Typography>
            )}
            <Typography variant="body2" data-testid={`${testId}-serials`}>
              {data.max_serial === null
                ? translate(`${texts}.none`)
                : translate(`${texts}.used`, { used: number(data.last_serial), max: number(data.max_serial) })}
            </Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
