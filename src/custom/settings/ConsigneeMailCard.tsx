import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Card, CardContent, CircularProgress, FormControlLabel, FormGroup, Switch, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import type { ConsigneeSwitch } from '../../dataProvider/notifications';
import { normalizeError } from '../../components/feedback/errors';

const KEY = ['account', 'consignee-mail'];

/**
 * The carrier's "E-mail ai destinatari" card (issue 22 item 4, docs/notifications.md): one switch per status
 * a request moves to; on means the consignee e-mails its requests name are told of that status. Each switch
 * is saved as it is flipped. The customer's own mail is always sent, as the card says.
 */
export function ConsigneeMailCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const switches = useQuery({ queryKey: KEY, queryFn: () => dataProvider.consigneeMailSettings(), staleTime: 0 });
  const [saving, setSaving] = useState<number | null>(null);

  const flip = async (s: ConsigneeSwitch, enabled: boolean) => {
    setSaving(s.status_id);
    try {
      const answer = await dataProvider.saveConsigneeMailSettings([{ status_id: s.status_id, enabled }]);
      queryClient.setQueryData(KEY, answer.data.consignee);
      notify(answer.message, { type: 'success' });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
    } finally {
      setSaving(null);
    }
  };

  return (
    <Card component="section" aria-labelledby="consignee-mail-title" sx={{ mt: 3 }} data-testid="consignee-mail-card">
      <CardContent sx={{ p: 3 }}>
        <Typography id="consignee-mail-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('consignee_mail.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('consignee_mail.intro')}
        </Typography>
        {switches.isPending && <CircularProgress size={24} aria-label={translate('ra.page.loading')} />}
        {switches.isError && <Alert severity="error">{normalizeError(switches.error).message}</Alert>}
        {switches.data && (
          <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' }, columnGap: 2 }}>
            {switches.data.map((s) => (
              <FormControlLabel
                key={s.status_id}
                control={
                  <Switch
                    checked={s.enabled}
                    disabled={saving !== null}
                    onChange={(_, on) => void flip(s, on)}
                    slotProps={{ input: { 'data-testid': `consignee-mail-${s.status_id}` } as Record<string, string> }}
                  />
                }
                label={
                  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                    {translate(`consignee_mail.status.${s.status_id}`)}
                    {saving === s.status_id && <CircularProgress size={14} aria-hidden />}
                  </Box>
                }
              />
            ))}
          </FormGroup>
        )}
      </CardContent>
    </Card>
  );
}
