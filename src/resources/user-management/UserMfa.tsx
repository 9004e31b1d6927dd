import { useState } from 'react';
import { useDataProvider, useNotify, usePermissions, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';

/**
 * Admins only, on a user's page: whether two-step verification is on, and turning it off for a user who
 * lost both the phone and the recovery codes (docs/two-factor.md). Texts `mfa.admin_*` come with the
 * account settings' messages (src/custom/accounts/mfaMessages.ts), which the signed-in shell loads.
 */
export function UserMfa({ userId }: { userId: number }) {
  const { permissions } = usePermissions();
  return permissions === 'admin' ? <AdminUserMfa userId={userId} /> : null;
}

function AdminUserMfa({ userId }: { userId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const key = ['mfa', 'user', userId];
  const { data } = useQuery({ queryKey: key, queryFn: () => dataProvider.adminMfaState(userId) });
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!data) return null;

  async function reset() {
    setBusy(true);
    try {
      const answer = await dataProvider.adminMfaReset(userId);
      notify(answer.message, { type: 'success' });
      setAsking(false);
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card component="section" aria-labelledby="user-mfa-title" sx={{ mt: 3, mb: 2 }} data-testid="user-mfa">
      <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography id="user-mfa-title" variant="h6" component="h2">
          {translate('mfa.admin_title')}
        </Typography>
        <Chip
          size="small"
          color={data.enabled ? 'success' : 'default'}
          label={translate(data.enabled ? 'mfa.admin_on' : 'mfa.admin_off')}
          data-testid="user-mfa-status"
        />
        {data.enabled && (
          <Box sx={{ ml: 'auto' }}>
            <Button variant="outlined" color="error" onClick={() => setAsking(true)} data-testid="user-mfa-reset">
              {translate('mfa.admin_reset')}
            </Button>
          </Box>
        )}
      </CardContent>
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby="user-mfa-reset-title">
        <DialogTitle id="user-mfa-reset-title">{translate('mfa.admin_reset_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('mfa.admin_reset_text')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{translate('mfa.cancel')}</Button>
          <Button variant="contained" color="error" onClick={reset} disabled={busy} data-testid="user-mfa-reset-confirm">
            {translate('mfa.admin_reset')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
