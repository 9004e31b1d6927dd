import { Link as RouterLink } from 'react-router-dom';
import { useGetList, usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Paper, Typography } from '@mui/material';

/**
 * The way to the access-request review from the dashboard. Admins have no sidebar entry for it (the
 * accounts document's sidebar table lists /request-access for carriers only), so they always get this
 * card; carriers get it when requests are waiting.
 */
export function AccessRequestsCard() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const allowed = permissions === 'admin' || permissions === 'carrier';
  // The open requests' count through the data provider (the same cache as the review list).
  const { total, isError } = useGetList('request-access', { pagination: { page: 1, perPage: 1 }, filter: { status: 'OP' } }, { enabled: allowed });
  const open = isError || total === undefined ? null : total;
  if (!allowed || (permissions === 'carrier' && !open)) return null;
  return (
    <Paper
      sx={{ p: 2.5, mt: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}
      data-testid="access-requests-card"
    >
      <Box>
        <Typography variant="h6" component="h2">
          {translate('request_access.dashboard_title')}
        </Typography>
        <Typography color="text.secondary" data-testid="access-requests-open">
          {translate('request_access.dashboard_open', { count: open ?? '…' })}
        </Typography>
      </Box>
      <Button component={RouterLink} to="/request-access" variant="outlined" data-testid="access-requests-link">
        {translate('request_access.dashboard_button')}
      </Button>
    </Paper>
  );
}
