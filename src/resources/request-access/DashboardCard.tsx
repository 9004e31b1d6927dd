import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Paper, Typography } from '@mui/material';
import { apiRequest } from '../../api/http';

/**
 * The way to the access-request review from the dashboard. Admins have no sidebar entry for it (the
 * accounts document's sidebar table lists /request-access for carriers only), so they always get this
 * card; carriers get it when requests are waiting.
 */
export function AccessRequestsCard() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState<number | null>(null);
  const allowed = permissions === 'admin' || permissions === 'carrier';
  useEffect(() => {
    if (!allowed) return undefined;
    const ctl = new AbortController();
    apiRequest<{ meta?: { total?: number } }>('/company/request_access', { query: { status: 'OP', per_page: 1 }, signal: ctl.signal })
      .then((a) => setOpen(Number(a?.meta?.total ?? 0)), () => setOpen(null));
    return () => ctl.abort();
  }, [allowed]);
  if (!allowed || (permissions === 'carrier' && !open)) return null;
  return (
    <Paper sx={{ p: 2.5, mt: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }} data-testid="access-requests-card">
      <Box>
        <Typography variant="h6" component="h2">{translate('request_access.dashboard_title')}</Typography>
        <Typography color="text.secondary" data-testid="access-requests-open">{translate('request_access.dashboard_open', { count: open ?? '…' })}</Typography>
      </Box>
      <Button component={RouterLink} to="/request-access" variant="outlined" data-testid="access-requests-link">{translate('request_access.dashboard_button')}</Button>
    </Paper>
  );
}
